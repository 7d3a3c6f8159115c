import type { Request } from '@waitfor/core';
import type { UrlElicitation, UrlElicitationState } from '@waitfor/legacy-spec';
import { describe, expect, it } from 'vitest';
import { noteQuestion, stillWaiting } from '../src/web/callQuestions.js';
import type { CallQuestions } from '../src/web/callQuestions.js';

// The page's "finish in the other tab" notes belong to calls: whatever legacy-spec's registry
// still holds, a note goes when the run that asked its question ends (cancelled, failed, done).

const run = (
  tool: string,
  status: CallQuestions['status'] = 'running',
  server = 'Travel Desk',
) => ({
  server,
  tool,
  status,
  questions: [] as readonly string[],
});

const entry = (id: string, state: UrlElicitationState): UrlElicitation => ({
  elicitationId: `server-${id}`,
  request: { id, kind: 'authorization', prompt: 'Sign in.', url: 'https://x.example/' } as Request,
  server: 'Travel Desk',
  state,
});

describe('noteQuestion', () => {
  it('notes a question on every run in flight on its server, and only there', () => {
    const calls = [
      run('link_account'),
      run('book_trip'),
      run('link_account', 'cancelled'),
      run('deploy_service', 'running', 'Deploy Console'),
    ];
    const noted = noteQuestion(calls, 'Travel Desk', undefined, 'q-1');
    expect(noted.map((call) => call.questions)).toEqual([['q-1'], ['q-1'], [], []]);
  });

  it('notes it on the run of the tool the bridge named, when it named one', () => {
    const noted = noteQuestion(
      [run('link_account'), run('book_trip')],
      'Travel Desk',
      'link_account',
      'q-1',
    );
    expect(noted.map((call) => call.questions)).toEqual([['q-1'], []]);
  });

  it('remembers a bounded number of questions per run', () => {
    let calls = [run('link_account')];
    for (let index = 0; index < 500; index += 1)
      calls = noteQuestion(calls, 'Travel Desk', undefined, `q-${index}`);
    expect(calls[0]?.questions).toHaveLength(50);
    expect(calls[0]?.questions.at(-1)).toBe('q-499');
  });
});

describe('stillWaiting', () => {
  it('shows a consented step while the run that asked it runs', () => {
    const calls = [{ ...run('link_account'), questions: ['q-1'] }];
    expect(stillWaiting([entry('q-1', 'consented')], calls)).toEqual([entry('q-1', 'consented')]);
  });

  it.each(['cancelled', 'failed', 'done'] as const)(
    'drops a consented step once its call is %s, whatever the registry still says',
    (status) => {
      const calls = [{ ...run('link_account', status), questions: ['q-1'] }];
      expect(stillWaiting([entry('q-1', 'consented')], calls)).toEqual([]);
    },
  );

  it.each(['open', 'completed', 'closed'] as const)('never shows a step that is %s', (state) => {
    const calls = [{ ...run('link_account'), questions: ['q-1'] }];
    expect(stillWaiting([entry('q-1', state)], calls)).toEqual([]);
  });

  it("shows only the running attempt's step after retries", () => {
    // Attempts 1 and 2 were cancelled after consent; attempt 3 runs under the same call entry.
    const elicitations = [
      entry('q-1', 'consented'),
      entry('q-2', 'consented'),
      entry('q-3', 'consented'),
    ];
    const calls = [{ ...run('link_account'), questions: ['q-3'] }];
    expect(stillWaiting(elicitations, calls).map((item) => item.request.id)).toEqual(['q-3']);
  });
});
