// The dashboard's build: web/ → web/dist, served by the gateway at /. Vite 8 (Rolldown + Oxc) compiles
// TSX by itself, so no React plugin is needed for the build; `npm run dev:web` proxies the API to a
// gateway on :3000 (GATEWAY_URL to change it).
import { defineConfig } from 'vite';

const gateway = process.env.GATEWAY_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The manifest lets the bundle-budget test find what the sign-in route loads.
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    // The favicon stays a file under /assets/ (served with the other assets) rather than a data: URI.
    assetsInlineLimit: (file) => (file.endsWith('.svg') ? false : undefined),
    rolldownOptions: {
      // Mantine marks its modules "use client" for React Server Components; a client bundle has no use for it.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
  server: {
    proxy: {
      '/api': gateway,
      '/v1': gateway,
      '/v1beta': gateway,
    },
  },
});
