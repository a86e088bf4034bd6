import * as v from 'valibot';
import {
  expenseCategoriesSchema,
  expenseClaimDetailSchema,
  expenseListSchema,
  type CreateExpenseRequest,
  type ExpenseEvent,
  type ExpenseReceipt,
  type ExpenseExportQuery,
  type ExpenseStatus,
  type UpdateExpenseRequest,
} from '../../../contract/expenses';
import { apiRequest, fetchBytes, type Credentials } from './client';

const enc = encodeURIComponent;
const claimPath = (id: string) => `/expenses/${enc(id)}`;

export interface ExpenseListQuery {
  status?: ExpenseStatus;
  limit: number;
  offset: number;
}

/** The viewer's claims (all of them for the admin), newest first, with the filter's totals per currency. */
export function listExpenses({ status, limit, offset }: ExpenseListQuery) {
  const query = new URLSearchParams({ limit: String(limit), offset: String(offset), ...(status && { status }) });
  return apiRequest(`/expenses?${query}`, { schema: expenseListSchema });
}

export const expenseCategories = () => apiRequest('/expenses/categories', { schema: expenseCategoriesSchema }).then((answer) => answer.categories);

export const createExpense = (body: CreateExpenseRequest) => apiRequest('/expenses', { method: 'POST', body, schema: expenseClaimDetailSchema });

export const getExpense = (id: string) => apiRequest(claimPath(id), { schema: expenseClaimDetailSchema });

export const updateExpense = (id: string, body: UpdateExpenseRequest) =>
  apiRequest(claimPath(id), { method: 'PATCH', body, schema: expenseClaimDetailSchema });

export const deleteExpense = (id: string) => apiRequest(claimPath(id), { method: 'DELETE', schema: v.null() });

/** One of the lifecycle's events: the owner submits under /expenses, the admin reviews under /admin/expenses. */
export function fireExpenseEvent(id: string, event: ExpenseEvent, note?: string) {
  const path = event === 'submit' ? `${claimPath(id)}/submit` : `/admin${claimPath(id)}/${event}`;
  return apiRequest(path, { method: 'POST', body: note === undefined ? {} : { note }, schema: expenseClaimDetailSchema });
}

export const deleteReceipt = (claimId: string, receiptId: string) =>
  apiRequest(`${claimPath(claimId)}/receipts/${enc(receiptId)}`, { method: 'DELETE', schema: v.null() });

/**
 * A receipt's bytes, for an inline preview: its route needs the user's credentials, which an `<img>` or a frame
 * cannot send. The blob takes the receipt's stored type (an image or a PDF, never HTML), whatever the answer says.
 */
export async function loadReceipt(claimId: string, receipt: Pick<ExpenseReceipt, 'id' | 'content_type'>, credentials: Credentials, signal?: AbortSignal): Promise<Blob> {
  const bytes = await fetchBytes(`${claimPath(claimId)}/receipts/${enc(receipt.id)}`, credentials, signal);
  return new Blob([bytes], { type: receipt.content_type });
}

/** The admin's CSV of the claims matching `query` (status, `spent_on` from and to), as a file to save. */
export async function exportExpensesCsv(query: ExpenseExportQuery, credentials: Credentials): Promise<Blob> {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const bytes = await fetchBytes(`/admin/expenses/export.csv${search.size > 0 ? `?${search}` : ''}`, credentials);
  return new Blob([bytes], { type: 'text/csv' });
}
