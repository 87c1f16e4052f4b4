import { Hono } from 'hono';
import type { AppEnv } from '../env';

// GET /api/user/filterOverrides and PUT /api/user/update/filterOverride/ (mounted under /api/user).
export const filterTypeRoutes = new Hono<AppEnv>();
