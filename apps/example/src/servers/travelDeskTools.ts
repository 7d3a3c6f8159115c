import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { SignInDesk } from './signInDesk.js';

// A person needs time to read and answer; the SDK's 60 s request default would cut them off.
const humanTimeoutMs = 10 * 60_000;

/** The form `book_trip` asks with: one field of every kind a legacy-era form can carry. */
export const tripSchema: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    destination: {
      type: 'string',
      title: 'Destination',
      oneOf: [
        { const: 'lisbon', title: 'Lisbon, Portugal' },
        { const: 'kyoto', title: 'Kyoto, Japan' },
        { const: 'montreal', title: 'Montréal, Canada' },
      ],
    },
    // No format hint: the page's date picker shows the person's own format, the terminal says it.
    departure: { type: 'string', format: 'date', title: 'Departure date' },
    nights: { type: 'integer', title: 'Nights', minimum: 1, maximum: 30, default: 4 },
    cabin: {
      type: 'string',
      title: 'Cabin',
      enum: ['economy', 'premium', 'business'],
      default: 'economy',
    },
    extras: {
      type: 'array',
      title: 'Extras',
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'bag', title: 'Checked bag' },
          { const: 'seat', title: 'Seat selection' },
          { const: 'lounge', title: 'Lounge access' },
        ],
      },
      default: [],
    },
    email: { type: 'string', format: 'email', title: 'Email for the itinerary' },
    insurance: { type: 'boolean', title: 'Add travel insurance', default: false },
  },
  required: ['destination', 'departure', 'email'],
};

const destinations: Record<string, string> = {
  lisbon: 'Lisbon, Portugal',
  kyoto: 'Kyoto, Japan',
  montreal: 'Montréal, Canada',
};
const extraNames: Record<string, string> = {
  bag: 'checked bag',
  seat: 'seat selection',
  lounge: 'lounge access',
};

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** What one connected session of the travel desk remembers. */
export interface TravelDeskSession {
  calendarLinked: boolean;
}

/** Where the travel desk's tools find the sign-in page and their own base URL. */
export interface TravelDeskContext {
  signIns: SignInDesk;
  baseUrl(): string;
}

/**
 * One legacy-era (2025-11-25) server per session, built on the v1 SDK: its tools push
 * `elicitation/create` (form and URL mode), send `notifications/elicitation/complete`, and answer
 * `-32042` when a calendar must be linked first.
 */
export function createTravelDesk(context: TravelDeskContext): McpServer {
  const server = new McpServer({ name: 'travel-desk', title: 'Travel Desk', version: '1.0.0' });
  const session: TravelDeskSession = { calendarLinked: false };

  server.registerTool(
    'book_trip',
    {
      title: 'Book a trip',
      description: 'Books flights and a hotel; asks where, when and how.',
      inputSchema: {},
    },
    async (_arguments, extra) => {
      // Progress for a client that asked for it (a progress token): step 1 of 2 while the person
      // answers, step 2 once the booking is made.
      const token = extra._meta?.progressToken;
      const progress = async (step: number, message: string) => {
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: step, total: 2, message },
          });
      };
      await progress(1, 'Waiting for your travel plans');
      const answer = await server.server.elicitInput(
        {
          mode: 'form',
          message: 'Where and when would you like to travel?',
          requestedSchema: tripSchema,
        },
        { relatedRequestId: extra.requestId, timeout: humanTimeoutMs, signal: extra.signal },
      );
      if (answer.action !== 'accept' || answer.content === undefined) {
        return text(
          answer.action === 'decline'
            ? 'Booking declined: nothing was reserved.'
            : 'Booking cancelled.',
        );
      }
      const trip = answer.content;
      const extras = Array.isArray(trip.extras)
        ? trip.extras.map((item) => extraNames[String(item)] ?? item)
        : [];
      const confirmation = `TD-${randomUUID().slice(0, 6).toUpperCase()}`;
      await progress(2, 'Booked');
      return text(
        `Booked ${String(trip.nights)} nights in ${destinations[String(trip.destination)] ?? String(trip.destination)} ` +
          `from ${String(trip.departure)}, ${String(trip.cabin)} cabin` +
          `${extras.length > 0 ? ` with ${extras.join(', ')}` : ''}` +
          `${trip.insurance === true ? ', insured' : ''}. Itinerary sent to ${String(trip.email)}. ` +
          `Confirmation ${confirmation}.`,
      );
    },
  );

  server.registerTool(
    'link_account',
    {
      title: 'Link a loyalty account',
      description: 'Links your airline loyalty account by signing in on the airline page.',
      inputSchema: { airline: z.enum(['SkyMiles', 'Avios', 'Aeroplan']).optional() },
    },
    async ({ airline }, extra) => {
      const provider = airline ?? 'SkyMiles';
      const elicitationId = randomUUID();
      const signIn = context.signIns.open(elicitationId, provider);
      const answer = await server.server
        .elicitInput(
          {
            mode: 'url',
            message: `Sign in to ${provider} so Travel Desk can link your loyalty account.`,
            url: context.signIns.pageUrl(context.baseUrl(), elicitationId),
            elicitationId,
          },
          { relatedRequestId: extra.requestId, timeout: humanTimeoutMs, signal: extra.signal },
        )
        .catch((error: unknown) => {
          // Cancelled (or timed out) before the person answered: the sign-in link must stop working.
          context.signIns.drop(elicitationId, 'the question was withdrawn');
          throw error;
        });
      if (answer.action !== 'accept') {
        context.signIns.drop(elicitationId, 'not consented');
        return text(
          `Linking ${provider} was ${answer.action === 'decline' ? 'declined' : 'cancelled'}.`,
        );
      }
      const abort = () => context.signIns.drop(elicitationId, 'the tool call was cancelled');
      extra.signal.addEventListener('abort', abort, { once: true });
      try {
        const who = await signIn.done;
        // The spec's completion signal: the client may now close its "finish in the browser" state.
        await server.server.createElicitationCompletionNotifier(elicitationId, {
          relatedRequestId: extra.requestId,
        })();
        return text(`Linked ${provider} account ${who.username} to your Travel Desk profile.`);
      } finally {
        extra.signal.removeEventListener('abort', abort);
      }
    },
  );

  server.registerTool(
    'sync_calendar',
    {
      title: 'Sync trips to calendar',
      description: 'Adds your booked trips to your calendar; needs a one-time calendar sign-in.',
      inputSchema: {},
    },
    async () => {
      if (session.calendarLinked) return text('Synced 3 upcoming trips to your calendar.');
      const elicitationId = randomUUID();
      const signIn = context.signIns.open(elicitationId, 'Calendar');
      // The call cannot go on until the person signs in: answer -32042 and tell the client when
      // the sign-in is done, so it can retry (legacy-era flow; the modern era has no such error).
      void signIn.done.then(async () => {
        session.calendarLinked = true;
        await server.server
          .createElicitationCompletionNotifier(elicitationId)()
          .catch(() => undefined);
      });
      throw new UrlElicitationRequiredError([
        {
          mode: 'url',
          message: 'Sign in to your calendar so Travel Desk can add your trips.',
          url: context.signIns.pageUrl(context.baseUrl(), elicitationId),
          elicitationId,
        },
      ]);
    },
  );

  return server;
}
