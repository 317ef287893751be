import type { FastifyError, FastifyInstance } from 'fastify';
import { isShedding, type ErrorCode } from '../core/error-codes.js';
import { LinkforgeError } from '../core/errors.js';
import { problem, PROBLEM_CONTENT_TYPE, type Problem } from './problem.js';

interface ValidationIssue { instancePath?: string; message?: string; keyword?: string; params?: Record<string, unknown> }

function describeValidation(issues: ValidationIssue[], context: string | undefined): string {
  return issues.map((issue) => {
    const where = `${context ?? 'request'}${issue.instancePath ?? ''}`.replace(/\//g, '.');
    if (issue.keyword === 'additionalProperties') return `${where} has an unknown field "${String(issue.params?.additionalProperty)}"`;
    return `${where} ${issue.message ?? 'is invalid'}`;
  }).join('; ');
}

/** Fastify's own errors (bad JSON, body too large, wrong media type…) keep their status. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'media_type_unsupported',
  FST_ERR_CTP_INVALID_JSON_BODY: 'json_malformed',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'json_malformed',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'content_length_invalid',
};

export function toProblem(error: FastifyError | LinkforgeError | Error): Problem {
  if (error instanceof LinkforgeError) return problem(error.code, error.message, error.extra);
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return problem('validation_failed', describeValidation(fastifyError.validation, fastifyError.validationContext));
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const detail = error instanceof SyntaxError ? `The body is not valid JSON: ${error.message}` : error.message;
    const code = FASTIFY_CODES[fastifyError.code];
    // Any other client error Fastify raises keeps its own status under the generic code.
    return code === undefined ? { ...problem('request_invalid', detail), status } : problem(code, detail);
  }
  return problem('server_failed');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const body = toProblem(error as FastifyError);
    if (body.status >= 500) {
      // Load shedding is the service working as designed; a failing dependency or a bug is not.
      if (isShedding(body.code)) request.log.warn({ code: body.code }, 'request shed');
      else request.log.error({ err: error }, 'request failed');
    }
    if (body.status === 503) reply.header('retry-after', '5');
    return reply.status(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const body = problem('route_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`);
    return reply.status(404).type(PROBLEM_CONTENT_TYPE).send(body);
  });
}
