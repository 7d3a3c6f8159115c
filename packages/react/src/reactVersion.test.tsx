import { createRequire } from 'node:module';
import { render } from '@testing-library/react';
import { version as reactVersion } from 'react';
import { version as domVersion } from 'react-dom';
import { version as serverVersion } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import './__tests__/harness.js';

// Each React project must run the React its name says: one that silently ran the other major
// would pass every other test while testing nothing of the version it claims.
const majorOf: Record<string, string> = { 'react-18': '18', 'react-19': '19' };

function expectedMajor(projectName: string | undefined): string {
  const major = Object.hasOwn(majorOf, projectName ?? '') ? majorOf[projectName!] : undefined;
  if (major === undefined) throw new Error(`Not a React project: ${String(projectName)}`);
  return major;
}

describe('the React this project runs', () => {
  it('react, react-dom and react-dom/server are the major the project is named after', ({
    task,
  }) => {
    const major = expectedMajor(task.file.projectName);
    expect(reactVersion.split('.')[0]).toBe(major);
    expect(domVersion.split('.')[0]).toBe(major);
    expect(serverVersion.split('.')[0]).toBe(major);
  });

  it('packages Node loads itself get the same react and react-dom', ({ task }) => {
    const major = expectedMajor(task.file.projectName);
    const nodeRequire = createRequire(import.meta.url);
    const react = nodeRequire('react') as { version: string };
    const dom = nodeRequire('react-dom') as { version: string };
    expect(react.version).toBe(reactVersion);
    expect(dom.version.split('.')[0]).toBe(major);
  });

  it('Testing Library renders with react-dom of that major', ({ task }) => {
    const major = expectedMajor(task.file.projectName);
    // react-dom 19 hoists a <title> rendered anywhere into <head>; react-dom 18 leaves it in place.
    const { container } = render(
      <div>
        <title>probe</title>
      </div>,
    );
    const renderer = container.querySelector('title') === null ? '19' : '18';
    expect(renderer).toBe(major);
  });
});
