import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';

export class PaymentOrder extends DurableObject<Bindings> {}
