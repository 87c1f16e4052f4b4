import { Hono } from 'hono';
import type { AppEnv } from '../env';

export const linkRoutes = new Hono<AppEnv>();
export const shortLinkRoutes = new Hono<AppEnv>();
