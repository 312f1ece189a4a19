/**
 * The records table (issue 32): what each completed upload became, as read from the server
 * (`GET /{resource}/{uuid}`), kept with the upload so History, Review and the Overview show it
 * offline. One row per record an upload made (a bank statement makes several), in `position` order.
 *
 * - `fetched_at` null: not read yet (the read failed, or the upload completed before this table
 *   existed); it is read when first shown, a few at a time. `read_error` says why the last read failed.
 * - `total` is a decimal string with two places at least ("12400.00"), as the server's number reads;
 *   `vendor_key` is the vendor lower-cased and trimmed, for the duplicate lookup.
 * - `reviewed_at` is set by "Mark reviewed"; `deleted_on_server` when the server answered 404.
 *
 * Its own module without imports, so store/db.ts can run it as migration 9.
 */
export const RECORDS_MIGRATION = `
  CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY,
    upload_id INTEGER NOT NULL,
    profile_id TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0,
    uuid TEXT NOT NULL,
    kind TEXT NOT NULL,
    vendor TEXT,
    vendor_key TEXT,
    date TEXT,
    total TEXT,
    currency TEXT,
    narration TEXT,
    fields TEXT,
    reviewed_at INTEGER,
    deleted_on_server INTEGER NOT NULL DEFAULT 0,
    fetched_at INTEGER,
    read_error TEXT,
    completed_at INTEGER NOT NULL,
    UNIQUE (upload_id, uuid)
  );
  CREATE INDEX IF NOT EXISTS records_uuid ON records(uuid);
  -- Review's lists, newest first: all, and what waits for review.
  CREATE INDEX IF NOT EXISTS records_list ON records(profile_id, completed_at, id);
  CREATE INDEX IF NOT EXISTS records_to_review ON records(profile_id, completed_at, id)
    WHERE reviewed_at IS NULL AND deleted_on_server = 0;
  -- The month's money: a profile's expenses and bills by date.
  CREATE INDEX IF NOT EXISTS records_month ON records(profile_id, kind, date);
  -- "Possible duplicate": another record with the same vendor, date and total.
  CREATE INDEX IF NOT EXISTS records_same ON records(profile_id, vendor_key, date, total);
  -- Records still to be read.
  CREATE INDEX IF NOT EXISTS records_unread ON records(upload_id) WHERE fetched_at IS NULL;
  INSERT OR IGNORE INTO records (upload_id, profile_id, position, uuid, kind, completed_at)
    SELECT id, profile_id, 0, record_uuid,
      COALESCE(NULLIF(lower(replace(trim(record_type), ' ', '_')), ''), CASE target
        WHEN 'expenses' THEN 'expense' WHEN 'bills' THEN 'bill' WHEN 'journals' THEN 'journal'
        WHEN 'invoices' THEN 'invoice' WHEN 'contacts' THEN 'contact' WHEN 'accounts' THEN 'account'
        WHEN 'bank-transactions' THEN 'bank_transaction' ELSE target END),
      COALESCE(completed_at, updated_at)
    FROM uploads WHERE status = 'completed' AND record_uuid IS NOT NULL;
`
