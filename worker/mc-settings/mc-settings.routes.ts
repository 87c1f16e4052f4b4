import { Hono } from 'hono';
import type { AppEnv } from '../env';

// TODO(issue): this area's routes.
export const mcSettingsRoutes = new Hono<AppEnv>();
