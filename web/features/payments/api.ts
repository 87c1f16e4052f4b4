import useSWR from 'swr';
import type { PaymentDto, PriceInfo } from '../../../worker/payments/payments.schema';
import { fetcher } from '../../lib/api-client';

export type { PaymentDto, PriceInfo };
export const usePrice = () => useSWR<PriceInfo>('/api/payment/monthlyprice', fetcher);
export const useHistory = () => useSWR<PaymentDto[]>('/api/payment/paymentHistory', fetcher);
export const amd = (n: number) => `${n.toLocaleString('en-US')} AMD`;
export const shortDateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
