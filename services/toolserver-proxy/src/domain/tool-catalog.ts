import { createHash } from 'node:crypto';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { validationError } from '@inquest/errors';
import { classifyTool } from '@inquest/write-guard';
import type { RawToolDefinition } from './tool-server-client';
import { nameProblem } from './tool-name';

/** A tool as the proxy lists it. */
export interface ToolDescriptorView {
  full_name: string;
  server: string;
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** A usable tool: its listing, its compiled parameter schema and whether it changes systems. */
export interface CompiledTool {
  def: ToolDescriptorView;
  validate: ValidateFunction;
  destructive: boolean;
}

/** One server's tools after the checks. */
export interface ToolListing {
  tools: Map<string, CompiledTool>;
  /** tools the server offered that could not be used, with the reason */
  rejected: Map<string, string>;
}

const MAX_SCHEMA_BYTES = 64 * 1024;
const MAX_TOOLS_PER_SERVER = 500;
const MAX_CACHED_SCHEMAS = 5_000;

/**
 * Turns the tool definitions a server returns into usable tools: name and schema checks, JSON
 * schema compilation (cached by content across servers and teams), read-only or destructive.
 */
export class ToolCatalog {
  private readonly ajv: Ajv;
  private readonly schemas = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: true });
    addFormats(this.ajv);
  }

  /** The usable tools of `server` among `raw` (the first 500), and why the others are not. */
  compile(server: string, raw: RawToolDefinition[]): ToolListing {
    const listing: ToolListing = { tools: new Map(), rejected: new Map() };
    for (const def of raw.slice(0, MAX_TOOLS_PER_SERVER)) {
      const name = typeof def?.name === 'string' ? def.name : '';
      const label = name || '(unnamed)';
      const problem = nameProblem(def?.name);
      if (problem) {
        listing.rejected.set(label.slice(0, 80), problem);
        continue;
      }
      if (listing.tools.has(name)) continue;
      const params = def.parameters ?? { type: 'object', properties: {} };
      if (
        typeof params !== 'object' ||
        params === null ||
        Array.isArray(params) ||
        (params as { type?: unknown }).type !== 'object'
      ) {
        listing.rejected.set(name, 'parameters must be a JSON schema of type object');
        continue;
      }
      if (Buffer.byteLength(JSON.stringify(params)) > MAX_SCHEMA_BYTES) {
        listing.rejected.set(name, 'parameter schema is too large');
        continue;
      }
      let validate: ValidateFunction;
      try {
        validate = this.compileSchema(params as Record<string, unknown>);
      } catch (err) {
        listing.rejected.set(name, `invalid parameter schema: ${errorText(err).slice(0, 200)}`);
        continue;
      }
      const annotations =
        typeof def.annotations === 'object' &&
        def.annotations !== null &&
        !Array.isArray(def.annotations)
          ? (def.annotations as Record<string, unknown>)
          : undefined;
      const view: ToolDescriptorView = {
        full_name: `${server}:${name}`,
        server,
        name,
        description: typeof def.description === 'string' ? def.description.slice(0, 4000) : '',
        parameters: params as Record<string, unknown>,
      };
      // The contract's optional `read_only` / `destructive` flags travel as MCP annotations.
      const merged: Record<string, unknown> = { ...(annotations ?? {}) };
      if (def.read_only === true && merged['readOnlyHint'] === undefined)
        merged['readOnlyHint'] = true;
      if (def.destructive === true) merged['destructiveHint'] = true;
      if (Object.keys(merged).length) view.annotations = merged;
      // One rule for "can change something" (libs/write-guard): annotations, flags, then words.
      const safety = classifyTool({ name, description: view.description, annotations: merged });
      listing.tools.set(name, { def: view, validate, destructive: !safety.readOnly });
    }
    return listing;
  }

  /** Throws a validation error naming each wrong parameter when `parameters` do not fit. */
  checkParameters(tool: CompiledTool, parameters: Record<string, unknown>): void {
    if (tool.validate(parameters)) return;
    const errors = tool.validate.errors ?? [];
    throw validationError(
      schemaErrors(errors),
      `invalid parameters for ${tool.def.full_name}: ${ajvMessage(errors)}`,
    );
  }

  private compileSchema(schema: Record<string, unknown>): ValidateFunction {
    const { $id: _id, $schema: _s, ...rest } = schema;
    const key = createHash('sha1').update(JSON.stringify(rest)).digest('hex');
    let v = this.schemas.get(key);
    if (!v) {
      v = this.ajv.compile(rest);
      if (this.schemas.size > MAX_CACHED_SCHEMAS) this.schemas.clear();
      this.schemas.set(key, v);
    }
    return v;
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function schemaErrors(errors: ErrorObject[]): Array<{ field: string; error: string }> {
  return errors.slice(0, 20).map((e) => {
    const missing =
      e.keyword === 'required'
        ? (e.params as { missingProperty?: string }).missingProperty
        : undefined;
    const extra =
      e.keyword === 'additionalProperties'
        ? (e.params as { additionalProperty?: string }).additionalProperty
        : undefined;
    const path = e.instancePath.split('/').filter(Boolean).join('.');
    const field = ['parameters', path, missing ?? extra].filter(Boolean).join('.');
    return { field, error: extra ? 'is not allowed' : (e.message ?? 'is invalid') };
  });
}

function ajvMessage(errors: ErrorObject[]): string {
  const first = schemaErrors(errors)[0];
  return first ? `${first.field} ${first.error}` : 'invalid';
}
