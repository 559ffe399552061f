import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The web dashboard's build: static, content-hashed assets in dist/ui, served by the api service. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The CSP allows no inline code: keep every asset a file, however small.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1024,
  },
});
