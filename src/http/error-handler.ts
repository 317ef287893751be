import type { FastifyError, FastifyInstance } from 'fastify';
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
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_content_length',
};

export function toProblem(error: FastifyError | LinkforgeError | Error): Problem {
  if (error instanceof LinkforgeError) return problem(error.status, error.code, error.title, error.message, error.extra);
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return problem(400, 'validation_failed', 'Invalid request', describeValidation(fastifyError.validation, fastifyError.validationContext));
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = FASTIFY_CODES[fastifyError.code] ?? 'bad_request';
    const detail = error instanceof SyntaxError ? `The body is not valid JSON: ${error.message}` : error.message;
    return problem(status, code, 'Bad request', detail);
  }
  return problem(500, 'internal_error', 'Internal server error', 'Something went wrong on our side.');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const body = toProblem(error as FastifyError);
    if (body.status >= 500) request.log.error({ err: error }, 'request failed');
    if (body.status === 503) reply.header('retry-after', '5');
    return reply.status(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const body = problem(404, 'route_not_found', 'Not found', `No route ${request.method} ${request.url.split('?')[0]}.`);
    return reply.status(404).type(PROBLEM_CONTENT_TYPE).send(body);
  });
}
