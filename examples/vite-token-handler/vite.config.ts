import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { signIns } from './signIns';
import { tokenHandlerPlugin } from './tokenHandlerPlugin';

export default defineConfig(({ mode }) => {
  // The handler's settings, from the environment or a .env file (.env.development has ones for `npm run dev`).
  // Without the VITE_ prefix, Vite never puts them in the page: the secret stays on the server.
  const env = loadEnv(mode, process.cwd(), '');
  return {
    plugins: [react(), tokenHandlerPlugin({ uri: env.GRAPHQL_URL, secret: env.TOKEN_HANDLER_SECRET, signIns })],
  };
});
