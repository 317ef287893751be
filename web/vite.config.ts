import { defineConfig, type Plugin } from 'vite';
import preact from '@preact/preset-vite';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

/** The stylesheet of the pages a link's recipient sees (404, 410): a fixed name, linked from HTML the server writes. */
export const RECIPIENT_STYLESHEET = 'page.css';
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes `name.br` (brotli, quality 11) and `name.gz` (gzip, level 9) beside every text file of the
 * build over a kilobyte, once here, so that the server sends them as they are (src/http/ui-assets.ts)
 * instead of compressing the same bytes on every request.
 */
function precompress(): Plugin {
  return {
    name: 'linkforge-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const file = path.join(options.dir!, fileName);
        const body = fs.readFileSync(file);
        if (body.length < MIN_COMPRESS_BYTES) continue;
        const br = zlib.brotliCompressSync(body, { params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        } });
        const gz = zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION });
        if (br.length < body.length) fs.writeFileSync(`${file}.br`, br);
        if (gz.length < body.length) fs.writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

// Built into web/dist, served by the Fastify process (src/http/routes/ui-routes.ts): index.html for
// `/` and `/app/*`, the content-hashed files under `/assets/` with a one-year immutable cache, and
// page.css for the redirect failure pages (src/http/redirect-pages.ts).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [preact(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Nothing inlined as data: URLs into scripts or styles, and no module-preload polyfill script.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        page: fileURLToPath(new URL('src/recipient-page.css', import.meta.url)),
      },
      output: {
        assetFileNames: (asset) => (asset.names.includes(RECIPIENT_STYLESHEET) ? RECIPIENT_STYLESHEET : 'assets/[name]-[hash][extname]'),
        // The QR library is loaded on demand (components/qr-code.tsx): a chunk named after it, not after its entry file.
        manualChunks: (id) => (id.includes('/node_modules/qrcode/') ? 'qrcode' : undefined),
      },
    },
  },
});
