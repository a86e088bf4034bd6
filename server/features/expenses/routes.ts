import { Hono } from 'hono';
import {
  createExpenseRequestSchema,
  expenseExportQuerySchema,
  expenseListQuerySchema,
  expenseRejectRequestSchema,
  expenseReviewRequestSchema,
  updateExpenseRequestSchema,
} from '../../../contract/expenses';
import type { AppDeps, AppEnv } from '../../context';
import { jsonBody, ok, queryParams } from '../../http';
import { requireAdmin, requirePermission } from '../auth/middleware';
import { exportExpensesCsv } from './export';
import { addReceipt, deleteExpense, deleteReceipt, findReceipt } from './receipts';
import { createExpense, fireExpenseEvent, getExpense, listExpenses, updateExpense } from './expenses';
import { readSettings } from '../settings/settings';
import { csvResponse } from '../../csv';
import { serveObject } from '../../storage/serve-object';

/**
 * Expense claims: `/expenses` for whoever files them (the admin, keys with the expense permission: their own), and
 * `/admin/expenses` for the admin's review and export. The lifecycle rules live in contract/expenses.ts.
 */
export function expenseRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.route('/expenses', claimRoutes(deps));
  app.route('/admin/expenses', reviewRoutes(deps));
  return app;
}

function claimRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requirePermission('expense'));

  app.get('/categories', async (c) => ok(c, { categories: (await readSettings(deps.db)).expense_categories }));

  app.post('/', jsonBody(createExpenseRequestSchema), async (c) =>
    ok(c, await createExpense(deps, c.get('principal'), c.req.valid('json')), 'expense_created', 201),
  );

  app.get('/', queryParams(expenseListQuerySchema), async (c) => ok(c, await listExpenses(deps, c.get('principal'), c.req.valid('query'))));

  app.get('/:id', async (c) => ok(c, await getExpense(deps, c.get('principal'), c.req.param('id'))));

  app.patch('/:id', jsonBody(updateExpenseRequestSchema), async (c) =>
    ok(c, await updateExpense(deps, c.get('principal'), c.req.param('id'), c.req.valid('json')), 'expense_updated'),
  );

  app.delete('/:id', async (c) => {
    await deleteExpense(deps, c.get('principal'), c.req.param('id'));
    return ok(c, null, 'expense_deleted');
  });

  app.post('/:id/submit', async (c) => ok(c, await fireExpenseEvent(deps, c.get('principal'), c.req.param('id'), 'submit'), 'expense_submitted'));

  app.post('/:id/receipts', async (c) =>
    ok(c, await addReceipt(deps, c.get('principal'), c.req.param('id'), c.req.raw), 'receipt_uploaded', 201),
  );

  app.get('/:id/receipts/:receiptId', async (c) => {
    const { row, driver } = await findReceipt(deps, c.get('principal'), c.req.param('id'), c.req.param('receiptId'));
    // The app fetches receipts with its credentials and shows them from a blob, so nothing here is for a page to
    // render: an attachment, sandboxed, PDF included, which keeps a crafted PDF from opening inline on our origin.
    return serveObject(c.req.raw, {
      driver,
      key: row.storage_path,
      size: Number(row.size),
      etag: row.etag,
      contentType: row.content_type,
      disposition: 'attachment',
      filename: row.filename,
    });
  });

  app.delete('/:id/receipts/:receiptId', async (c) => {
    await deleteReceipt(deps, c.get('principal'), c.req.param('id'), c.req.param('receiptId'));
    return ok(c, null, 'receipt_deleted');
  });

  return app;
}

function reviewRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAdmin);

  app.get('/export.csv', queryParams(expenseExportQuerySchema), async (c) => {
    const csv = await exportExpensesCsv(deps.db, c.req.valid('query'));
    return csvResponse(c, csv, 'expenses.csv');
  });

  app.post('/:id/process', jsonBody(expenseReviewRequestSchema), async (c) =>
    ok(c, await fireExpenseEvent(deps, c.get('principal'), c.req.param('id'), 'process', c.req.valid('json').note), 'expense_processing'),
  );

  app.post('/:id/approve', jsonBody(expenseReviewRequestSchema), async (c) =>
    ok(c, await fireExpenseEvent(deps, c.get('principal'), c.req.param('id'), 'approve', c.req.valid('json').note), 'expense_approved'),
  );

  app.post('/:id/reject', jsonBody(expenseRejectRequestSchema), async (c) =>
    ok(c, await fireExpenseEvent(deps, c.get('principal'), c.req.param('id'), 'reject', c.req.valid('json').note), 'expense_rejected'),
  );

  return app;
}
