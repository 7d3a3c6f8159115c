'use client';
import { useId, useMemo, useState } from 'react';
import { accept } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { ActionButton, RefuseButtons } from './ActionButton.js';
import { useLocalization } from './localization.js';
import { readSampling } from './readSampling.js';
import { RequestFrame } from './RequestFrame.js';
import { useRequestView } from './useRequestView.js';

/** Props of SamplingView. */
export interface SamplingViewProps {
  /** A `kind:"sampling"` Request with the sampling params under `data.params`. */
  request: Request;
  className?: string;
}

/**
 * Lets a person review what a server wants a model to be asked (the system prompt, the messages,
 * the model preferences), edit the text, then approve, decline or cancel. Approve answers
 * `{ params }`: the params as the server sent them, with the person's edits.
 */
export function SamplingView({ request, className }: SamplingViewProps) {
  const view = useRequestView(request);
  const { text, number } = useLocalization();
  const id = useId();
  const review = useMemo(() => readSampling(request, text), [request, text]);
  const [editing, setEditing] = useState(false);
  // Edited texts by part key ("system", or the message's index); a part not edited keeps its own.
  const [drafts, setDrafts] = useState(() => new Map<string, string>());
  const draft = (key: string, original: string) => drafts.get(key) ?? original;
  const percent = (value: number | undefined) =>
    value === undefined ? '–' : number(value, { style: 'percent' });
  const system = review.systemPrompt;
  const parts = [
    ...(system === undefined
      ? []
      : [
          {
            key: 'system',
            role: 'system',
            label: text('systemPrompt'),
            text: system,
            editable: true,
          },
        ]),
    ...review.messages.map((message, index) => ({
      ...message,
      key: String(index),
      label:
        message.role === 'user' || message.role === 'assistant' ? text(message.role) : message.role,
    })),
  ];

  const approve = () => {
    const given = review.params.messages as Array<Record<string, object>>;
    // Only what the person edited changes; every other key goes back as the server sent it.
    const params: Record<string, unknown> = {
      ...review.params,
      messages: review.messages.map((message, index) =>
        message.editable && drafts.has(String(index))
          ? {
              ...given[index],
              content: { ...given[index]?.content, text: drafts.get(String(index)) },
            }
          : given[index],
      ),
    };
    if (system !== undefined) params.systemPrompt = draft('system', system);
    view.settle(accept(request, { params }));
  };

  return (
    <RequestFrame request={request} status={view.status} className={className} settle={view.settle}>
      <div className="waitfor-sampling">
        {review.tooLarge ? (
          <p role="alert" className="waitfor-error">
            {text('tooLarge')}
          </p>
        ) : (
          <>
            <ol className="waitfor-messages" aria-label={text('conversation')}>
              {parts.map((part) => (
                <li key={part.key} className="waitfor-message" data-waitfor-role={part.role}>
                  <label htmlFor={`${id}-${part.key}`}>{part.label}</label>
                  {/* Read-only until Edit: the same labelled field a screen reader names either way. */}
                  <textarea
                    id={`${id}-${part.key}`}
                    className="waitfor-control"
                    value={part.editable ? draft(part.key, part.text) : part.text}
                    readOnly={!(editing && part.editable)}
                    onChange={(event) =>
                      setDrafts((previous) => new Map(previous).set(part.key, event.target.value))
                    }
                  />
                </li>
              ))}
            </ol>
            <div className="waitfor-preferences">
              {review.models.length > 0 ? (
                <p>{text('models', { models: review.models.join(', ') })}</p>
              ) : null}
              {review.priorities.some((value) => value !== undefined) ? (
                <p>
                  {text('priorities', {
                    cost: percent(review.priorities[0]),
                    speed: percent(review.priorities[1]),
                    intelligence: percent(review.priorities[2]),
                  })}
                </p>
              ) : null}
              {review.maxTokens === undefined ? null : (
                <p>{text('maxTokens', { count: number(review.maxTokens) })}</p>
              )}
            </div>
          </>
        )}
        <div className="waitfor-actions">
          <ActionButton
            request={request}
            action="approve"
            disabled={review.tooLarge}
            onClick={approve}
          />
          <ActionButton
            request={request}
            action="edit"
            aria-pressed={editing}
            disabled={review.tooLarge}
            onClick={() => setEditing((now) => !now)}
          />
          <RefuseButtons request={request} settle={view.settle} />
        </div>
      </div>
    </RequestFrame>
  );
}
