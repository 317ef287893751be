import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: below about a kilobyte the encoding saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Compresses the answers Fastify sends (the JSON API, the API docs) when the client accepts it:
 * brotli at quality 4 (quick, and still smaller than gzip for JSON), else gzip. Request bodies are
 * never inflated: a compressed upload would slip past the body limits. The web UI's files are
 * compressed once at build time and routes that serve them opt out (ui-routes.ts); redirects never
 * reach this hook (they are answered before routing, or hijacked under `app.inject`).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } },
  });
}
