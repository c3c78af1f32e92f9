import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { reporters } from '../../vitest.shared';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { port: 3000, strictPort: true, host: true },
  preview: { port: 3000, strictPort: true, host: true },
  build: { manifest: true, sourcemap: false, chunkSizeWarningLimit: 400 },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    reporters,
  },
});
