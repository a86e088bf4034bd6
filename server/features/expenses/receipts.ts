import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import {
  canDeleteExpense,
  EXPENSE_RECEIPTS_MAX,
  receiptTypeOfName,
  type ExpenseReceipt,
  type ReceiptContentType,
} from '../../../contract/expenses';
import type { AppDeps, Principal } from '../../context';
import type { ExpenseReceiptsTable } from '../../db/schema';
import { ApiError } from '../../errors';
import { putWithinBudget } from '../../forms/budgeted-put';
import { receiveForm, type FormFile } from '../../forms/receive-form';
import { assertSafeKey } from '../../storage/driver';
import { cleanFilename, EXPENSE_AREA, safeSegment } from '../../storage/keys';
import { reasonOf } from '../../storage/reason';
import { driverFor, type StorageConfigRow } from '../../storage/registry';
import { randomBase62 } from '../../security/tokens';
import { HeadKeeper, typeOfBytes } from '../../security/file-signatures';
import { statusConflict } from './events';
import { editableExpense, isExpenseOwner, lockExpense, visibleExpense } from './expenses';
import { ensureDefaultStorage, findStorageConfig } from '../storages/configs';
import { assertFits, byteBudget, uploadLimits } from '../storages/upload-limits';
import { stagingDirOf } from '../file-shares/form-uploads';

type ReceiptRow = Selectable<ExpenseReceiptsTable>;

const receiptNotFound = () => new ApiError(404, 'receipt_not_found');

/** Receipts go to the default storage, into its expense area, where no mount reaches (storage/keys.ts). */
async function defaultStorage(deps: AppDeps): Promise<StorageConfigRow> {
  return (
    (await deps.db.selectFrom('storage_configs').selectAll().where('is_default', '=', 1).executeTakeFirst()) ??
    (await ensureDefaultStorage(deps.db, deps.now()))
  );
}

function receiptKey(claimId: string, filename: string): string {
  const key = `${EXPENSE_AREA}/${claimId}/${randomBase62(10)}-${safeSegment(filename) || 'receipt'}`;
  assertSafeKey(key);
  return key;
}

interface StoredReceipt {
  config: StorageConfigRow;
  key: string;
  filename: string;
  contentType: ReceiptContentType;
  size: number;
  etag: string;
}

const present = (row: ReceiptRow): ExpenseReceipt => ({
  id: row.id,
  filename: row.filename,
  content_type: row.content_type as ReceiptContentType,
  size: Number(row.size),
  created_at: row.created_at,
});

async function storeReceipt(deps: AppDeps, claimId: string, file: FormFile): Promise<StoredReceipt> {
  try {
    const filename = cleanFilename(file.filename);
    const named = receiptTypeOfName(filename);
    if (!named) throw new ApiError(400, 'receipt_type_refused', {}, { field: 'file', issue: 'unsupported_type' });
    const config = await defaultStorage(deps);
    const limits = await uploadLimits(deps, config);
    const key = receiptKey(claimId, filename);
    const keeper = new HeadKeeper();
    file.stream.on('error', (error) => keeper.destroy(error));
    const driver = driverFor(deps, config);
    const outcome = await putWithinBudget(driver, key, file.stream.pipe(keeper), named, byteBudget(limits));
    if (outcome.kind === 'over_budget') {
      assertFits(outcome.seen, limits);
      throw new ApiError(413, 'body_too_large', { limit: String(byteBudget(limits)) });
    }
    if (outcome.kind === 'failed') throw new ApiError(502, 'storage_unavailable', { reason: reasonOf(outcome.error) });
    if (typeOfBytes(keeper.head) !== named) {
      await driver.delete(key).catch(() => undefined);
      throw new ApiError(400, 'receipt_signature_mismatch', {}, { field: 'file', issue: 'signature_mismatch' });
    }
    return { config, key, filename, contentType: named, size: outcome.head.size, etag: outcome.head.etag };
  } catch (error) {
    // Whatever went wrong, the rest of the part is read (and dropped) so the form can end and be answered.
    file.stream.resume();
    throw error;
  }
}

/**
 * `POST /api/expenses/{id}/receipts`: one file of a multipart form, streamed into the expense area within the max
 * upload size, its type checked by name and by its first bytes. The record is written under the claim's lock
 * after a last look at the claim; when that fails the object goes again, so neither is ever left without the other.
 */
export async function addReceipt(deps: AppDeps, principal: Principal, claimId: string, request: Request): Promise<ExpenseReceipt> {
  await assertRoomForReceipt(deps, principal, claimId);
  const { stored } = await receiveForm(request, {
    placementFields: [],
    stagingDir: stagingDirOf(deps),
    stagingLimit: 0,
    tooLarge: () => new ApiError(413, 'body_too_large', { limit: '0' }),
    store: (_fields, file) => storeReceipt(deps, claimId, file),
    discard: (receipt) => driverFor(deps, receipt.config).delete(receipt.key),
  });
  const row: ReceiptRow = {
    id: randomUUID(),
    claim_id: claimId,
    filename: stored.filename,
    content_type: stored.contentType,
    size: stored.size,
    storage_config_id: stored.config.id,
    storage_path: stored.key,
    etag: stored.etag || null,
    created_at: deps.now().toISOString(),
  };
  try {
    await deps.db.transaction().execute(async (trx) => {
      await lockExpense(trx, claimId);
      await assertRoomForReceipt(deps, principal, claimId, trx);
      await trx.insertInto('expense_receipts').values(row).execute();
    });
  } catch (error) {
    await driverFor(deps, stored.config).delete(stored.key).catch(() => undefined);
    throw error;
  }
  return present(row);
}

async function assertRoomForReceipt(deps: AppDeps, principal: Principal, claimId: string, trx = deps.db): Promise<void> {
  await editableExpense(trx, principal, claimId);
  const { count } = await trx
    .selectFrom('expense_receipts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('claim_id', '=', claimId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= EXPENSE_RECEIPTS_MAX) {
    throw new ApiError(409, 'expense_receipts_full', { max: EXPENSE_RECEIPTS_MAX }, { field: 'file', max: EXPENSE_RECEIPTS_MAX });
  }
}

/** A receipt of a claim the caller may see: its owner, or the admin. */
export async function findReceipt(deps: AppDeps, principal: Principal, claimId: string, receiptId: string) {
  await visibleExpense(deps.db, principal, claimId);
  const row = await deps.db
    .selectFrom('expense_receipts')
    .selectAll()
    .where('id', '=', receiptId)
    .where('claim_id', '=', claimId)
    .executeTakeFirst();
  if (!row) throw receiptNotFound();
  const config = await findStorageConfig(deps.db, row.storage_config_id);
  if (!config) throw receiptNotFound();
  return { row, driver: driverFor(deps, config) };
}

/** The object first, then the record: a storage failure keeps the record (as file shares do). */
async function removeReceipt(deps: AppDeps, row: ReceiptRow): Promise<void> {
  const config = await findStorageConfig(deps.db, row.storage_config_id);
  if (config) {
    try {
      await driverFor(deps, config).delete(row.storage_path);
    } catch (error) {
      throw new ApiError(502, 'storage_delete_failed', { reason: reasonOf(error) });
    }
  }
  await deps.db.deleteFrom('expense_receipts').where('id', '=', row.id).execute();
}

export async function deleteReceipt(deps: AppDeps, principal: Principal, claimId: string, receiptId: string): Promise<void> {
  await editableExpense(deps.db, principal, claimId);
  const { row } = await findReceipt(deps, principal, claimId, receiptId);
  await removeReceipt(deps, row);
}

/**
 * Deletes a draft with its receipts, objects first. A receipt added meanwhile is found by the last look, under
 * the claim's lock, and removed in another round, so no object outlives its claim.
 */
export async function deleteExpense(deps: AppDeps, principal: Principal, id: string): Promise<void> {
  for (;;) {
    const claim = await visibleExpense(deps.db, principal, id);
    if (!isExpenseOwner(principal, claim)) throw new ApiError(403, 'expense_owner_only');
    if (!canDeleteExpense(claim.status)) throw statusConflict(claim.status);
    const receipts = await deps.db.selectFrom('expense_receipts').selectAll().where('claim_id', '=', id).execute();
    for (const receipt of receipts) await removeReceipt(deps, receipt);
    const done = await deps.db.transaction().execute(async (trx) => {
      await lockExpense(trx, id);
      const { status } = await visibleExpense(trx, principal, id);
      if (!canDeleteExpense(status)) throw statusConflict(status);
      if (await trx.selectFrom('expense_receipts').select('id').where('claim_id', '=', id).executeTakeFirst()) return false;
      await trx.deleteFrom('expense_claims').where('id', '=', id).execute();
      return true;
    });
    if (done) return;
  }
}
