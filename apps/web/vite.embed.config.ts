import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The embeddable chat: one script and one style with fixed names (`embed-app.js`, `embed-app.css`),
 * apart from the app's build so the app does not grow, served by the API at /embed-assets/ (its
 * EMBED_DIST_DIR points here).
 */
export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  publicDir: false,
  build: {
    outDir: 'dist-embed',
    emptyOutDir: true,
    sourcemap: false,
    cssCodeSplit: false,
    rollupOptions: {
      input: fileURLToPath(new URL('./src/embed/main.tsx', import.meta.url)),
      output: {
        entryFileNames: 'embed-app.js',
        chunkFileNames: 'embed-[name].js',
        assetFileNames: (asset) =>
          asset.names?.[0]?.endsWith('.css') ? 'embed-app.css' : 'embed-[name][extname]',
      },
    },
  },
});
