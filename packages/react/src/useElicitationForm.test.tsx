import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { WaitforError, createInbox } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { WaitforProvider, useElicitationForm } from '@waitfor/react';

const formRequest = (schema: unknown, id = 'form'): Request => ({
  id,
  kind: 'input',
  prompt: 'Fill in',
  data: { schema },
});

function renderForm(request: Request) {
  const inbox = createInbox();
  const answer = inbox.waitFor(request);
  const wrapper = ({ children }: { children?: ReactNode }) => (
    <WaitforProvider inbox={inbox}>{children}</WaitforProvider>
  );
  const hook = renderHook(({ current }: { current: Request }) => useElicitationForm(current), {
    wrapper,
    initialProps: { current: request },
  });
  return { ...hook, inbox, answer };
}

describe('useElicitationForm', () => {
  it('normalizes every enum shape, including titled multi-select with items.oneOf', () => {
    const { result } = renderForm(
      formRequest({
        type: 'object',
        properties: {
          plain: { type: 'string', enum: ['a', 'b'] },
          titled: { type: 'string', oneOf: [{ const: 'x', title: 'Ex' }] },
          legacy: { type: 'string', enum: ['p'], enumNames: ['Pee'] },
          many: { type: 'array', items: { type: 'string', enum: ['m', 'n'] } },
          manyAny: { type: 'array', items: { anyOf: [{ const: 'q', title: 'Queue' }] } },
          manyOne: { type: 'array', items: { oneOf: [{ const: 'r', title: 'Are' }] } },
        },
      }),
    );
    const fields = Object.fromEntries(result.current.fields.map((field) => [field.name, field]));
    expect(fields.plain).toMatchObject({
      kind: 'select',
      options: [
        { value: 'a', label: 'a' },
        { value: 'b', label: 'b' },
      ],
    });
    expect(fields.titled).toMatchObject({ kind: 'select', options: [{ value: 'x', label: 'Ex' }] });
    expect(fields.legacy).toMatchObject({
      kind: 'select',
      options: [{ value: 'p', label: 'Pee' }],
    });
    expect(fields.many).toMatchObject({ kind: 'multiselect' });
    expect(fields.manyAny).toMatchObject({
      kind: 'multiselect',
      options: [{ value: 'q', label: 'Queue' }],
    });
    expect(fields.manyOne).toMatchObject({
      kind: 'multiselect',
      options: [{ value: 'r', label: 'Are' }],
    });
  });

  it('validates on accept only, with per-field errors that clear when that field changes', async () => {
    const { result, inbox, answer } = renderForm(
      formRequest({
        type: 'object',
        properties: {
          code: { type: 'string', minLength: 3, maxLength: 5 },
          count: { type: 'integer', minimum: 1 },
          when: { type: 'string', format: 'date-time' },
          agree: { type: 'boolean' },
        },
        required: ['code', 'agree'],
      }),
    );
    // A required checkbox has a visible answer from the start.
    expect(result.current.values).toEqual({ agree: false });
    act(() => {
      result.current.setValue('code', 'ab');
      result.current.setValue('count', '4.5');
      result.current.setValue('when', 'next tuesday');
    });
    // Typing alone never validates.
    expect(result.current.errors).toEqual({});
    let accepted = true;
    act(() => {
      accepted = result.current.accept();
    });
    expect(accepted).toBe(false);
    expect(Object.keys(result.current.errors).sort()).toEqual(['code', 'count', 'when']);
    expect(result.current.values).toEqual({
      agree: false,
      code: 'ab',
      count: '4.5',
      when: 'next tuesday',
    });
    expect(inbox.get('form')).toBeDefined();

    act(() => {
      result.current.setValue('code', 'abcd');
    });
    expect(Object.keys(result.current.errors).sort()).toEqual(['count', 'when']);

    act(() => {
      result.current.setValue('count', '');
      result.current.setValue('when', '2026-01-31T09:00:00Z');
    });
    act(() => {
      accepted = result.current.accept();
    });
    expect(accepted).toBe(true);
    // The blank optional integer is left out, the text is coerced to its schema types.
    await expect(answer).resolves.toEqual({
      id: 'form',
      ok: true,
      data: { code: 'abcd', agree: false, when: '2026-01-31T09:00:00Z' },
    });
  });

  it('a malformed schema gives an error state, never a throw; decline still works', async () => {
    const { result, answer } = renderForm(formRequest({ type: 'array' }));
    expect(result.current.fields).toEqual([]);
    expect(WaitforError.isInstance(result.current.schemaError)).toBe(true);
    let accepted = true;
    act(() => {
      accepted = result.current.accept();
    });
    expect(accepted).toBe(false);
    act(() => {
      result.current.decline();
    });
    await expect(answer).resolves.toMatchObject({ ok: false, reason: 'declined' });
  });

  it('a missing schema is an error state too', () => {
    const { result } = renderForm({ id: 'none', kind: 'input', prompt: 'No schema' });
    expect(result.current.schemaError).toBeInstanceOf(Error);
  });

  it('keeps typed values when the same Request object is re-created, resets for another Request', () => {
    const schema = { type: 'object', properties: { name: { type: 'string', default: 'x' } } };
    const { result, rerender } = renderForm(formRequest(schema));
    act(() => {
      result.current.setValue('name', 'typed');
    });
    rerender({ current: formRequest({ ...schema }) });
    expect(result.current.values).toEqual({ name: 'typed' });
    rerender({ current: formRequest(schema, 'other') });
    expect(result.current.values).toEqual({ name: 'x' });
  });

  describe('a re-ask (data.values, data.errors, data.attempt)', () => {
    const schema = {
      type: 'object',
      properties: {
        code: { type: 'string', minLength: 3 },
        count: { type: 'integer', minimum: 1 },
        color: { type: 'string', enum: ['red', 'green'], default: 'red' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        agree: { type: 'boolean' },
        note: { type: 'string', default: 'none' },
      },
      required: ['code', 'agree'],
    };
    const reAsk = (data: Record<string, unknown>, id = 'form-2'): Request => ({
      id,
      kind: 'input',
      prompt: 'Fill in',
      data: { schema, ...data },
    });

    it("seeds the person's values over the defaults and shows the messages at once", async () => {
      const { result, answer } = renderForm(
        reAsk({
          values: { code: 'ab', count: '4.5', color: 'green', tags: ['b'], agree: true },
          errors: { code: 'Too short.', count: 'Expected a whole number.' },
          attempt: 2,
        }),
      );
      // `note` was not given: its default stays.
      expect(result.current.values).toEqual({
        code: 'ab',
        count: '4.5',
        color: 'green',
        tags: ['b'],
        agree: true,
        note: 'none',
      });
      expect(result.current.errors).toEqual({
        code: 'Too short.',
        count: 'Expected a whole number.',
      });
      expect(result.current.attempt).toBe(2);
      act(() => {
        result.current.setValue('code', 'abc');
      });
      expect(result.current.errors).toEqual({ count: 'Expected a whole number.' });
      act(() => {
        result.current.setValue('count', '4');
      });
      let accepted = false;
      act(() => {
        accepted = result.current.accept();
      });
      expect(accepted).toBe(true);
      await expect(answer).resolves.toEqual({
        id: 'form-2',
        ok: true,
        data: { code: 'abc', count: 4, color: 'green', tags: ['b'], agree: true, note: 'none' },
      });
    });

    it.each<[string, Record<string, unknown>]>([
      ['not objects', { values: 'code=ab', errors: 'all wrong', attempt: 'two' }],
      ['null', { values: null, errors: null, attempt: null }],
      ['arrays', { values: ['ab'], errors: ['Too short.'], attempt: [2] }],
      ['numbers', { values: 7, errors: 7, attempt: -1 }],
      ['a fractional attempt', { attempt: 1.5 }],
    ])('ignores %s safely: defaults, no messages, no attempt', (_name, data) => {
      const { result } = renderForm(reAsk(data));
      expect(result.current.schemaError).toBeUndefined();
      expect(result.current.values).toEqual({ color: 'red', agree: false, note: 'none' });
      expect(result.current.errors).toEqual({});
      expect(result.current.attempt).toBeUndefined();
    });

    it('takes only string messages and showable values of known fields', () => {
      const { result } = renderForm(
        reAsk({
          values: {
            code: { nested: true }, // not text
            count: Number.NaN, // a number control cannot show it
            color: 'purple', // not an option
            tags: ['a', 'z'], // one is not an option
            agree: 'yes', // a checkbox shows only true / false
            note: 'kept',
            unknown: 'dropped',
          },
          errors: {
            code: { message: 'not a string' },
            count: 42,
            color: '',
            agree: 'Required.',
            unknown: 'No such field.',
            '': 'Expected an object of field values.',
          },
        }),
      );
      expect(result.current.values).toEqual({ color: 'red', agree: false, note: 'kept' });
      expect(result.current.errors).toEqual({ agree: 'Required.' });
    });

    it('never reads inherited keys as values or messages', () => {
      const inherited = {
        type: 'object',
        properties: { constructor: { type: 'string' }, toString: { type: 'string' } },
      };
      const inheritedOnly = (value: string) =>
        Object.create({ constructor: value, toString: value }) as Record<string, unknown>;
      const { result } = renderForm({
        id: 'proto',
        kind: 'input',
        prompt: 'Fill in',
        data: {
          schema: inherited,
          values: inheritedOnly('from a prototype'),
          errors: inheritedOnly('A message from a prototype.') as Record<string, string>,
        },
      });
      expect(result.current.schemaError).toBeUndefined();
      expect(result.current.fields.map((field) => field.name)).toEqual(['constructor', 'toString']);
      expect(result.current.values).toEqual({});
      expect(result.current.errors).toEqual({});
    });

    it('a re-ask in the same component starts from its own values, not the stale typing', () => {
      const { result, rerender } = renderForm(reAsk({}, 'form-1'));
      act(() => {
        result.current.setValue('code', 'x');
      });
      rerender({ current: reAsk({ values: { code: 'xy' }, errors: { code: 'Too short.' } }) });
      expect(result.current.values).toMatchObject({ code: 'xy' });
      expect(result.current.errors).toEqual({ code: 'Too short.' });
    });
  });

  it('a schema that throws something other than an Error still gives a WaitforError', () => {
    const hostile = {
      type: 'object',
      get properties(): unknown {
        throw 'no properties today';
      },
    };
    const { result } = renderForm(formRequest(hostile));
    const error = result.current.schemaError;
    expect(WaitforError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_schema', cause: 'no properties today' });
    expect(result.current.fields).toEqual([]);
  });

  it('values and errors hold only own keys: fields named like Object.prototype members read empty', async () => {
    const { result, answer } = renderForm(
      formRequest(
        JSON.parse(
          '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"string"},"toString":{"type":"string","default":"d"}},"required":["__proto__","constructor"]}',
        ),
      ),
    );
    expect(result.current.values['__proto__']).toBeUndefined();
    expect(result.current.values['constructor']).toBeUndefined();
    expect(result.current.values['toString']).toBe('d');
    expect(result.current.errors['constructor']).toBeUndefined();
    act(() => {
      result.current.accept();
    });
    expect(result.current.errors['__proto__']).toBe('Required.');
    expect(result.current.errors['constructor']).toBe('Required.');
    expect(result.current.errors['toString']).toBeUndefined();
    act(() => {
      result.current.setValue('__proto__', 'p');
      result.current.setValue('constructor', 'c');
    });
    expect(result.current.values['__proto__']).toBe('p');
    expect(result.current.errors['__proto__']).toBeUndefined();
    act(() => {
      result.current.accept();
    });
    const sent = await answer;
    expect(JSON.stringify(sent)).toBe(
      '{"id":"form","ok":true,"data":{"__proto__":"p","constructor":"c","toString":"d"}}',
    );
  });
});
