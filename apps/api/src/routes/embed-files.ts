import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { repoRoot } from '../env';
import { embedTokenInUrl } from '../plugins/embed-access';

const tags = ['embed'];
const open = { access: 'public' as const };
// From the repository's root: the same path from the sources and from the built dist/server.js.
const SCRIPT_FILE = join(repoRoot, 'apps', 'api', 'public', 'embed.js');
/** The built widget's files: names only, no path can be named. */
const ASSET_NAME = /^[a-z0-9-]+\.(js|css)$/;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's policy: only its own script, style and API; framed only by the chatbot's allowed origins. */
const pagePolicy = (frameAncestors: string[]) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "connect-src 'self'",
    "img-src 'self' data: https:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');

const page = (body: string, lang: string) => `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Chat</title>
${body}`;

/**
 * The embeddable chat's files, served by the API because it is the public origin integrators already
 * use and the only server that can send each chatbot's `frame-ancestors`: the script that adds the
 * chat bubble (`/embed.js`), the iframe page (`/embed/{token}`) and the widget it loads (built by
 * apps/web into EMBED_DIST_DIR).
 */
const embedFilesRoutes: FastifyPluginAsyncZod = async (app) => {
  const cache = new Map<string, string>();
  const fileText = async (path: string) => {
    const cached = cache.get(path);
    if (cached !== undefined) return cached;
    const text = await readFile(path, 'utf8');
    // In development the widget is rebuilt in place: read it again each time.
    if (app.config.nodeEnv === 'production') cache.set(path, text);
    return text;
  };

  app.get(
    '/embed.js',
    {
      config: open,
      schema: {
        tags,
        summary:
          'The script that adds the chat bubble to a page: <script src=".../embed.js" data-token="…" async>',
        description:
          'Attributes: `data-token` (required), `data-lang` (`en` or `fr`; default: the browser language), `data-theme` (`light`, `dark` or `auto`), `data-position` (`right` or `left`).',
      },
    },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(await fileText(SCRIPT_FILE)),
  );

  app.get(
    '/embed-assets/:file',
    {
      config: open,
      schema: {
        tags,
        summary: "The iframe page's widget (script and style)",
        params: z.object({ file: z.string().regex(ASSET_NAME, { error: 'No such file.' }) }).strict(),
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      let text: string;
      try {
        text = await fileText(join(app.config.embedDistDir, file));
      } catch {
        return reply.status(404).send({ detail: `There is no widget file ${file}.`, code: 'not_found' });
      }
      return reply
        .header('content-type', `${file.endsWith('.js') ? 'text/javascript' : 'text/css'}; charset=utf-8`)
        .header('cache-control', 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(text);
    },
  );

  app.get(
    '/embed/:token',
    {
      config: open,
      schema: {
        tags,
        summary: 'The chat page to put in an iframe (framed only by the allowed origins)',
        description:
          'Sent with `Content-Security-Policy: frame-ancestors <allowed origins>`. Query: `lang` (`en`, `fr`), `theme` (`light`, `dark`, `auto`), `framed` (`1` from embed.js). An unknown token answers 404 and may not be framed.',
        params: z.object({ token: z.string().max(100) }).strict(),
        querystring: z
          .object({
            lang: z.string().max(10).optional(),
            theme: z.string().max(10).optional(),
            /** Set by embed.js: the page shows a close button that asks the bubble to close. */
            framed: z.string().max(10).optional(),
          })
          .strict(),
      },
    },
    async (request, reply) => {
      const lang = request.query.lang === 'fr' ? 'fr' : 'en';
      const token = embedTokenInUrl(request.url);
      const found = token ? await app.services.embeds.find(token) : null;
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer');
      if (!found) {
        return reply
          .status(404)
          .header('content-security-policy', pagePolicy([]))
          .send(page('</head><body><p>This chat is not available.</p></body></html>', lang));
      }
      return reply.header('content-security-policy', pagePolicy(found.allowedOrigins)).send(
        page(
          `<link rel="stylesheet" href="../embed-assets/embed-app.css">
<script type="module" src="../embed-assets/embed-app.js"></script>
</head>
<body>
<div id="embed-root" data-token="${escapeHtml(found.token)}"></div>
<noscript>This chat needs JavaScript.</noscript>
</body>
</html>`,
          lang,
        ),
      );
    },
  );
};

export default embedFilesRoutes;
