import { describe, expect, it } from 'vitest';
import type { CallInfo } from './extension';
import { createQuestionLinks } from './questionLinks';

const call = { method: 'tools/call' } as CallInfo;

describe('question links', () => {
  it('aborts a question once every call it can belong to has ended, and only then', () => {
    const links = createQuestionLinks();
    const endFirst = links.beginCall(call);
    const endSecond = links.beginCall(call);
    const both = links.openQuestion(undefined, true);
    const alone = links.openQuestion(undefined, false);
    const closed = links.openQuestion(undefined, true);
    closed.close();
    expect(both.calls).toHaveLength(2);
    endFirst();
    endFirst();
    expect(both.signal.aborted).toBe(false);
    endSecond();
    expect(both.signal.aborted).toBe(true);
    // No candidate: only the SDK or abortAll end it; a closed question is unlinked.
    expect(alone.signal.aborted).toBe(false);
    expect(closed.signal.aborted).toBe(false);
    links.abortAll('detached');
    expect(alone.signal.reason).toBe('detached');
  });

  // Scaled so that ending a call by scanning every open question (the code before this test)
  // blocks for minutes — 40,000 of each took 15 s, and it grows with the square — while counting
  // down each call's own questions takes well under a second. The deadline catches a hang;
  // nothing is timed.
  it('ends 100,000 calls while 100,000 questions stay open, each end costing its own questions', () => {
    const links = createQuestionLinks();
    const open = Array.from({ length: 100_000 }, () => links.openQuestion(undefined, false));
    for (let index = 0; index < 100_000; index++) links.beginCall(call)();
    const asked = links.beginCall(call);
    const question = links.openQuestion(undefined, true);
    asked();
    expect(question.signal.aborted).toBe(true);
    expect(open.some((question) => question.signal.aborted)).toBe(false);
  }, 30_000);
});
