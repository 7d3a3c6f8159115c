import { describe, expect, it, vi } from 'vitest';
import { WaitforError } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { createFormSession, validateFormAnswer } from '@waitfor/core/form';

const formRequest = (data: Record<string, unknown>, id = 'form'): Request => ({
  id,
  kind: 'input',
  prompt: 'Fill in',
  data,
});

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

describe('createFormSession', () => {
  it('shows the defaults (a required checkbox shows "no") and sends them untouched', () => {
    const session = createFormSession(formRequest({ schema }));
    expect(session.fields.map((field) => field.name)).toEqual([
      'code',
      'count',
      'color',
      'tags',
      'agree',
      'note',
    ]);
    expect(session.getSnapshot().values).toEqual({ color: 'red', agree: false, note: 'none' });
    session.setValue('code', 'abc');
    expect(session.submit()).toEqual({
      id: 'form',
      ok: true,
      data: { code: 'abc', color: 'red', agree: false, note: 'none' },
    });
  });

  it('validates on submit only; messages clear per field as it changes; values are kept', () => {
    const session = createFormSession(formRequest({ schema }));
    session.setValue('code', 'ab');
    session.setValue('count', '4.5');
    expect(session.getSnapshot().errors).toEqual({});
    expect(session.submit()).toBeUndefined();
    expect(Object.keys(session.getSnapshot().errors).sort()).toEqual(['code', 'count']);
    expect(session.getSnapshot().values).toMatchObject({ code: 'ab', count: '4.5' });
    session.setValue('code', 'abcd');
    expect(Object.keys(session.getSnapshot().errors)).toEqual(['count']);
    session.setValue('count', '4');
    expect(session.submit()).toMatchObject({ ok: true, data: { code: 'abcd', count: 4 } });
    expect(session.getSnapshot().errors).toEqual({});
  });

  it('validate checks what the form shows as submit would, and changes nothing', () => {
    const session = createFormSession(formRequest({ schema }));
    const listener = vi.fn();
    session.subscribe(listener);
    session.setValue('code', 'ab');
    const before = session.getSnapshot();
    expect(session.validate()).toEqual({
      ok: false,
      errors: { code: expect.stringMatching(/3/) as unknown },
    });
    expect(session.getSnapshot()).toBe(before);
    expect(listener).toHaveBeenCalledTimes(1);
    session.setValue('note', '');
    session.setValue('code', 'abc');
    expect(session.validate()).toEqual({
      ok: true,
      value: { code: 'abc', color: 'red', agree: false },
    });
    expect(createFormSession(formRequest({})).validate()).toMatchObject({ ok: false });
  });

  it('a cleared optional field is left out, never refilled with its default', () => {
    const session = createFormSession(formRequest({ schema }));
    session.setValue('code', 'abc');
    session.setValue('note', '');
    session.setValue('color', '');
    session.setValue('tags', '');
    expect(session.submit()).toEqual({
      id: 'form',
      ok: true,
      data: { code: 'abc', agree: false },
    });
  });

  it('an empty list is the answer "none of these", sent as such; "" is no answer', () => {
    const session = createFormSession(formRequest({ schema }));
    session.setValue('code', 'abc');
    session.setValue('tags', []);
    expect(session.submit()?.data).toMatchObject({ tags: [] });
    const required = {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
      required: ['tags'],
    };
    const blank = createFormSession(formRequest({ schema: required }));
    blank.setValue('tags', '');
    expect(blank.submit()).toBeUndefined();
    expect(blank.getSnapshot().errors).toEqual({ tags: 'Required.' });
  });

  it('an empty required field is an error, even when the schema has a default for it', () => {
    const withDefault = {
      type: 'object',
      properties: { name: { type: 'string', default: 'x' } },
      required: ['name'],
    };
    const session = createFormSession(formRequest({ schema: withDefault }));
    session.setValue('name', '');
    expect(session.submit()).toBeUndefined();
    expect(session.getSnapshot().errors).toEqual({ name: 'Required.' });
    expect(session.getSnapshot().values).toEqual({ name: '' });
  });

  it('an accept always carries data, empty when every optional field is cleared', () => {
    const optional = { type: 'object', properties: { note: { type: 'string', default: 'n' } } };
    const session = createFormSession(formRequest({ schema: optional }));
    session.setValue('note', '');
    expect(session.submit()).toEqual({ id: 'form', ok: true, data: {} });
  });

  it('what is sent passes validateFormAnswer for the same schema', () => {
    const session = createFormSession(formRequest({ schema }));
    session.setValue('code', 'abc');
    session.setValue('tags', ['b', 'a']);
    const answer = session.submit();
    expect(validateFormAnswer(schema, answer?.data)).toEqual({ ok: true, value: answer?.data });
  });

  describe('a re-ask (data.values, data.errors, data.attempt)', () => {
    it("seeds the person's values over the defaults and shows the messages at once", () => {
      const session = createFormSession(
        formRequest({
          schema,
          values: { code: 'ab', count: '4.5', color: 'green', tags: ['b'], agree: true },
          errors: { code: 'Too short.', count: 'Expected a whole number.' },
          attempt: 2,
        }),
      );
      expect(session.getSnapshot().values).toEqual({
        code: 'ab',
        count: '4.5',
        color: 'green',
        tags: ['b'],
        agree: true,
        note: 'none',
      });
      expect(session.getSnapshot().errors).toEqual({
        code: 'Too short.',
        count: 'Expected a whole number.',
      });
      expect(session.attempt).toBe(2);
    });

    it('takes only string messages and showable values of known fields', () => {
      const session = createFormSession(
        formRequest({
          schema,
          values: {
            code: { nested: true },
            count: Number.NaN,
            color: 'purple',
            tags: ['a', 'z'],
            agree: 'yes',
            note: 'kept',
            unknown: 'dropped',
          },
          errors: {
            code: { message: 'x' },
            count: 42,
            color: '',
            agree: 'Required.',
            unknown: 'x',
          },
        }),
      );
      expect(session.getSnapshot().values).toEqual({ color: 'red', agree: false, note: 'kept' });
      expect(session.getSnapshot().errors).toEqual({ agree: 'Required.' });
    });

    it.each<[string, Record<string, unknown>]>([
      ['not objects', { values: 'code=ab', errors: 'all wrong', attempt: 'two' }],
      ['null', { values: null, errors: null, attempt: null }],
      ['arrays', { values: ['ab'], errors: ['Too short.'], attempt: [2] }],
      ['numbers', { values: 7, errors: 7, attempt: -1 }],
      ['a fractional attempt', { attempt: 1.5 }],
    ])('ignores %s safely: defaults, no messages, no attempt', (_name, data) => {
      const session = createFormSession(formRequest({ schema, ...data }));
      expect(session.schemaError).toBeUndefined();
      expect(session.getSnapshot().values).toEqual({ color: 'red', agree: false, note: 'none' });
      expect(session.getSnapshot().errors).toEqual({});
      expect(session.attempt).toBeUndefined();
    });
  });

  it('fields named like Object.prototype members are ordinary: own keys in, own keys out', () => {
    const ownKeys = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"string"},"toString":{"type":"string","default":"d"}},"required":["__proto__","constructor"]}',
    ) as unknown;
    const inheritedOnly = Object.create({ constructor: 'from a prototype' }) as object;
    const session = createFormSession(
      formRequest({ schema: ownKeys, values: inheritedOnly, errors: inheritedOnly }),
    );
    const { values, errors } = session.getSnapshot();
    expect(values['__proto__']).toBeUndefined();
    expect(values['constructor']).toBeUndefined();
    expect(values['toString']).toBe('d');
    expect(errors['constructor']).toBeUndefined();
    expect(session.submit()).toBeUndefined();
    expect(session.getSnapshot().errors['__proto__']).toBe('Required.');
    expect(session.getSnapshot().errors['constructor']).toBe('Required.');
    session.setValue('__proto__', 'p');
    session.setValue('constructor', 'c');
    expect(Object.getPrototypeOf(session.getSnapshot().values)).toBeNull();
    expect(JSON.stringify(session.submit())).toBe(
      '{"id":"form","ok":true,"data":{"__proto__":"p","constructor":"c","toString":"d"}}',
    );
  });

  it('ignores a name that is no field of the form: what is sent is what the form shows', () => {
    const session = createFormSession(formRequest({ schema }));
    const before = session.getSnapshot();
    session.setValue('unknown', 'x');
    session.setValue('__proto__', 'x');
    expect(session.getSnapshot()).toBe(before);
    session.setValue('code', 'abc');
    expect(session.submit()?.data).not.toHaveProperty('unknown');
  });

  it('one snapshot object until a change; subscribers hear every change; touched lists the changed fields', () => {
    const session = createFormSession(formRequest({ schema }));
    const first = session.getSnapshot();
    expect(session.getSnapshot()).toBe(first);
    expect([...first.touched]).toEqual([]);
    const listener = vi.fn();
    const stop = session.subscribe(listener);
    session.setValue('code', 'a');
    expect(listener).toHaveBeenCalledTimes(1);
    const second = session.getSnapshot();
    expect(second).not.toBe(first);
    expect(first.values).toEqual({ color: 'red', agree: false, note: 'none' });
    expect([...second.touched]).toEqual(['code']);
    session.submit();
    expect(listener).toHaveBeenCalledTimes(2);
    expect([...session.getSnapshot().touched]).toEqual(['code']);
    stop();
    session.setValue('note', 'x');
    expect(listener).toHaveBeenCalledTimes(2);
    expect([...session.getSnapshot().touched]).toEqual(['code', 'note']);
  });

  it('a throwing listener stops neither the next listener nor the change, and is reported', () => {
    const reported: WaitforError[] = [];
    const session = createFormSession(formRequest({ schema }), {
      onError: (error) => reported.push(error),
    });
    const failure = new Error('a broken field');
    const seen: unknown[] = [];
    session.subscribe(() => {
      throw failure;
    });
    session.subscribe(() => seen.push(session.getSnapshot().values['code']));
    session.setValue('code', 'abc');
    expect(seen).toEqual(['abc']);
    expect(session.getSnapshot().values['code']).toBe('abc');
    expect(reported.map((error) => [error.code, error.cause])).toEqual([
      ['listener_failed', failure],
    ]);
  });

  it('a listener that unsubscribes while it runs does not stop the others', () => {
    const session = createFormSession(formRequest({ schema }));
    const calls: string[] = [];
    const stopFirst = session.subscribe(() => {
      calls.push('first');
      stopFirst();
    });
    session.subscribe(() => calls.push('second'));
    session.setValue('code', 'a');
    session.setValue('code', 'ab');
    expect(calls).toEqual(['first', 'second', 'second']);
  });

  it('a malformed or missing schema is an error state: no fields, no submit', () => {
    for (const data of [{ schema: { type: 'array' } }, {}]) {
      const session = createFormSession(formRequest(data));
      expect(WaitforError.isInstance(session.schemaError)).toBe(true);
      expect(session.fields).toEqual([]);
      expect(session.submit()).toBeUndefined();
    }
  });

  it('a schema that throws something other than an Error still gives a WaitforError', () => {
    const hostile = {
      type: 'object',
      get properties(): unknown {
        throw 'no properties today';
      },
    };
    const session = createFormSession(formRequest({ schema: hostile }));
    expect(session.schemaError).toMatchObject({
      code: 'invalid_schema',
      cause: 'no properties today',
    });
  });

  it("reads the schema within the host's limits; a bad limit is the host's error, thrown", () => {
    const session = createFormSession(formRequest({ schema }), { limits: { fields: 2 } });
    expect(session.schemaError).toMatchObject({ code: 'invalid_schema' });
    expect(() => createFormSession(formRequest({ schema }), { limits: { fields: -1 } })).toThrow(
      expect.objectContaining({ code: 'invalid_options' }),
    );
  });
});
