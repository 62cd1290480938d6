/**
 * Request validation for the emulator, by schema (zod), answered the way the
 * service does (FastAPI): 422 with `detail[]` items of `loc`, `msg`, `type`.
 */
import { z } from "zod";
import { GPU_TYPES } from "../knowledge/migration.js";
import { webhookUrlProblem } from "./webhooks.js";

export interface ValidationItem {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** The queue request; webhooks to this machine or a metadata address only with `allowLocalWebhooks`. */
export function queueRequestSchema(allowLocalWebhooks: boolean) {
  return z.object({
    deployment_id: z.string({ required_error: "Field required" }).uuid(),
    inputs: z.record(z.unknown()).default({}),
    webhook: z
      .string()
      .superRefine((value, ctx) => {
        const problem = webhookUrlProblem(value, allowLocalWebhooks);
        if (problem)
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem.msg, params: { type: problem.type } });
      })
      .optional(),
    webhook_intermediate_status: z.boolean().optional(),
    gpu: z.enum(GPU_TYPES).optional(),
    flags: z.array(z.string()).optional(),
  });
}

export type QueueRequest = z.infer<ReturnType<typeof queueRequestSchema>>;

export const runIdSchema = z.string().uuid();

/** zod issues in FastAPI's words, with `loc` rooted at "body" or "path". */
export function validationItems(error: z.ZodError, root: "body" | "path" | "query"): ValidationItem[] {
  return error.issues.map((issue) => ({ loc: [root, ...issue.path], ...describe(issue) }));
}

function describe(issue: z.ZodIssue): { msg: string; type: string } {
  switch (issue.code) {
    case "invalid_type":
      if (issue.received === "undefined") return { msg: "Field required", type: "missing" };
      return {
        msg: `Input should be a valid ${fastApiTypeName(issue.expected)}`,
        type: `${fastApiTypeName(issue.expected)}_type`,
      };
    case "invalid_string":
      return issue.validation === "uuid"
        ? { msg: "Input should be a valid UUID", type: "uuid_parsing" }
        : { msg: issue.message, type: "string_pattern_mismatch" };
    case "custom":
      return { msg: issue.message, type: typeof issue.params?.type === "string" ? issue.params.type : "value_error" };
    case "invalid_enum_value":
      return { msg: `Input should be ${issue.options.map((o) => `'${String(o)}'`).join(", ")}`, type: "enum" };
    default:
      return { msg: issue.message, type: "value_error" };
  }
}

function fastApiTypeName(expected: string): string {
  if (expected === "object" || expected === "record") return "dictionary";
  if (expected === "array") return "list";
  if (expected === "boolean") return "boolean";
  return expected;
}

/** A body that is not a JSON object (a list, a string, or bytes of another content type), as FastAPI reports it. */
export const NOT_AN_OBJECT: ValidationItem = {
  loc: ["body"],
  msg: "Input should be a valid dictionary or object to extract fields from",
  type: "model_attributes_type",
};

export function jsonInvalid(message: string, position = 0): ValidationItem[] {
  return [{ loc: ["body", position], msg: `JSON decode error: ${message}`, type: "json_invalid" }];
}
