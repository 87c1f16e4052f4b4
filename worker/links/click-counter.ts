import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';

export class ClickCounter extends DurableObject<Bindings> {}
