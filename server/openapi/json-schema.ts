import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { booleanAsText, nullableContentType, numberAsText, optionalSlug } from '../../contract/lenient';
import { PAYLOAD_FORMAT, pasteEncryptionSchema } from '../../contract/paste-encryption';
import { NAMED_SCHEMAS } from './named-schemas';

export type { JsonSchema };

const COMPONENTS = '#/components/schemas/';

/**
 * Descriptions of contract schemas kept here rather than in the contract (`v.description`), because the contract's
 * schemas are also the browser's code: a share's page would carry these texts for nothing.
 */
const DESCRIPTIONS = new Map<unknown, string>([
  [numberAsText, 'The same number written as a string.'],
  [booleanAsText, '"true" or "false".'],
  [optionalSlug, 'A custom link; empty asks for none.'],
  [nullableContentType, 'Empty or null: taken from the file\'s name.'],
  [
    pasteEncryptionSchema,
    `How \`content\` is encrypted; absent or null = plain text. \`aes-256-gcm\`: \`content\` is the ${PAYLOAD_FORMAT} ` +
      'The 32-byte key is never sent: it travels in the link\'s fragment, `#key=<base64url of the key>`.',
  ],
]);

/**
 * One conversion for the whole document: JSON Schema 2020-12 (the dialect of OpenAPI 3.1), named schemas as
 * `$ref`s. The contract's custom checks (`check`, `rawCheck`), `trim`, transforms and `finite` (every JSON number
 * is) have no JSON Schema form; they are skipped rather than failing, and any other unsupported piece still
 * throws, so a new kind of schema in the contract is noticed by the document's test.
 */
const common = (typeMode: 'input' | 'output') =>
  ({
    target: 'draft-2020-12',
    typeMode,
    ignoreActions: ['check', 'raw_check', 'trim', 'transform', 'finite'],
    overrideRef: ({ referenceId }) => `${COMPONENTS}${referenceId}`,
    overrideSchema: ({ valibotSchema, jsonSchema }) => {
      const description = DESCRIPTIONS.get(valibotSchema);
      return description ? { ...jsonSchema, description } : undefined;
    },
  }) satisfies Omit<ConversionConfig, 'definitions'>;
const config = (typeMode: 'input' | 'output'): ConversionConfig => ({ ...common(typeMode), definitions: NAMED_SCHEMAS });

/** The converter adds `$schema` and copies of the definitions to every root; the document holds them once. */
function bare(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $defs: _definitions, ...rest } = schema as JsonSchema & { $defs?: unknown };
  return rest;
}

/** What a client may send: the schema's input side (query strings stay strings before their transform). */
export const requestSchema = (schema: v.GenericSchema): JsonSchema => bare(toJsonSchema(schema, config('input')));

/** What the server answers. */
export const responseSchema = (schema: v.GenericSchema): JsonSchema => bare(toJsonSchema(schema, config('output')));

/** `components.schemas`. */
export const namedSchemas = (): Record<string, JsonSchema> => toJsonSchemaDefs(NAMED_SCHEMAS, common('output'));

export const refTo = (name: keyof typeof NAMED_SCHEMAS) => ({ $ref: `${COMPONENTS}${name}` });
