// The console's build: served by the sandbox at /console/ (server/src/api/shared), so every asset URL starts there.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The sandbox `npm run dev -w console` sends API calls to (`npm start`'s default address). */
const sandbox = 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    // The console calls the API on its own origin, as it does when the sandbox serves it.
    proxy: { '^/(v2|v3|sandbox|token|status|settings)(/|$)': { target: sandbox, changeOrigin: false } },
  },
});
