// app/auth/[route]/route.ts: the browser's /auth/login, /auth/sign-in, /auth/refresh and /auth/logout
export { tokenHandler as POST } from '../../../lib/tokenHandler';
