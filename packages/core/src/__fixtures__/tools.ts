/**
 * Host tools shared by the tool-runner tests and the child process that resumes a suspension, so
 * both run the very same code.
 */
import { pending, type Tool } from '../tools';

/** The form a booking asks for: a name and a number of seats. */
export const seatsSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    seats: { type: 'integer', minimum: 1, maximum: 8 },
  },
  required: ['name', 'seats'],
} as const;

/** A form whose one required field has a default: what an answer taken as given must not fill in. */
export const defaultSeatsSchema = {
  type: 'object',
  properties: { seats: { type: 'integer', default: 2 } },
  required: ['seats'],
} as const;

/** A booking: asks for the details, then (second round) for approval of the total, then books. */
export const bookTable: Tool<{ restaurant: string }, string> = (args, { answers, state }) => {
  if (state === undefined) {
    return pending(
      {
        details: {
          id: 'details-1',
          kind: 'input',
          prompt: `Book ${args.restaurant}`,
          data: { schema: seatsSchema },
        },
      },
      { step: 'details' },
    );
  }
  const step = (state as { step: string }).step;
  if (step === 'details') {
    const details = answers['details']!;
    if (!details.ok) return `not booked (${details.reason})`;
    const { name, seats } = details.data as { name: string; seats: number };
    return pending(
      {
        approve: { id: 'approve-1', kind: 'approval', prompt: `Pay ${seats * 10} EUR?` },
      },
      { step: 'approve', name, seats },
    );
  }
  const { name, seats } = state as { name: string; seats: number };
  return answers['approve']!.ok
    ? `booked ${args.restaurant} for ${name} (${seats})`
    : `not paid (${answers['approve']!.reason})`;
};
