import { StoreError } from './storeError';

/** The names one store uses in its database: its schema's tables, function and NOTIFY channel. */
export interface Names {
  readonly schema: string;
  readonly questions: string;
  readonly calls: string;
  readonly instances: string;
  readonly migrations: string;
  /** The trigger function that marks a durable call ready when its last question ends. */
  readonly questionEnded: string;
  /** The NOTIFY channel of this schema's store (`waitfor_store` for `public`). */
  readonly channel: string;
}

/** A schema name the store accepts: a plain lower-case identifier (never quoted, never spliced from input). */
const plainIdentifier = /^[a-z_][a-z0-9_]{0,39}$/;

/**
 * The names of the store in `schema`. Every table is schema-qualified, so two stores live side by
 * side in one database and a DBA can grant each its own schema. Throws `invalid_options` for a
 * schema that is not a plain identifier of at most 40 characters.
 */
export function namesOf(schema = 'public'): Names {
  if (typeof schema !== 'string' || !plainIdentifier.test(schema))
    throw new StoreError(
      'invalid_options',
      'schema must be a plain lower-case identifier (a-z, 0-9, _) of at most 40 characters',
    );
  return {
    schema,
    questions: `${schema}.waitfor_questions`,
    calls: `${schema}.waitfor_calls`,
    instances: `${schema}.waitfor_instances`,
    migrations: `${schema}.waitfor_migrations`,
    questionEnded: `${schema}.waitfor_question_ended`,
    // `public` keeps the channel older copies of the store listen on.
    channel: schema === 'public' ? 'waitfor_store' : `waitfor_store_${schema}`,
  };
}
