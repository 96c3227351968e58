import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const gateway = process.env.ASKDOCK_GATEWAY ?? 'http://127.0.0.1:7420';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 400 },
  server: { proxy: { '/ws': { target: gateway, ws: true }, '/healthz': gateway } },
});
