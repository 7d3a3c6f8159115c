/** Every shape of the restricted schema (the spec's form mode, ElicitRequestFormParams) as sent. */
export const everyShape = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  title: 'Profile',
  description: 'Tell us about you',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, maxLength: 50 },
    email: { type: 'string', format: 'email' },
    homepage: { type: 'string', format: 'uri' },
    birthday: { type: 'string', format: 'date' },
    meeting: { type: 'string', format: 'date-time' },
    code: { type: 'string', pattern: '^(a+)+$', default: 'aaa' },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 42 },
    score: { type: 'number', minimum: 0.5, maximum: 9.5 },
    subscribe: { type: 'boolean', default: false, description: 'Send me news' },
    color: { type: 'string', enum: ['red', 'green'], default: 'red' },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'h1', title: 'Superman' },
        { const: 'h2', title: 'Batman' },
      ],
    },
    pet: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'] },
    tags: {
      type: 'array',
      items: { type: 'string', enum: ['a', 'b', 'c'] },
      minItems: 1,
      maxItems: 2,
      default: ['a'],
    },
    fish: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'f1', title: 'Tuna' },
          { const: 'f2', title: 'Salmon' },
        ],
      },
    },
    birds: { type: 'array', items: { oneOf: [{ const: 'b1', title: 'Owl' }] }, maxItems: 1 },
  },
  required: ['name', 'email', 'age'],
  additionalProperties: false,
};
