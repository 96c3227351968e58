import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const gateway = process.env.ASKDOCK_GATEWAY ?? 'http://127.0.0.1:7420';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 400 },
  // The gateway checks Host (S3) and Origin (S1): the dev proxy presents itself as the gateway's own page.
  server: {
    proxy: {
      '/ws': { target: gateway, ws: true, changeOrigin: true, headers: { origin: gateway } },
      '/healthz': { target: gateway, changeOrigin: true },
    },
  },
});
