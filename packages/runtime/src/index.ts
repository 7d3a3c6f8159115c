/**
 * Helpers every waitfor package needs, written once. Private: each public package bundles what it
 * uses (code and types), so nothing here is part of any public API or installed on its own.
 */
export { brandClass, brandError } from './errorBrand';
export { controllerBatch, createController, isAborted, linkedController } from './controller';
export type { ControllerLike, SignalLike } from './controller';
export { isRecord } from './isRecord';
export { createListeners, reportUncaught, type Listeners } from './listeners';
export { MAX_TIMER_DELAY, schedule, scheduleUnref } from './schedule';
export { createRecentMemory, recentLimits } from './recentMemory';
export type { RecentLimits, RecentMemory } from './recentMemory';
