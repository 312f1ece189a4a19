/**
 * The names of every call and event of the contract (./contract.ts), without their schemas: the
 * renderer's HTTP bridge needs the lists at run time, and importing them from here keeps zod and
 * every request schema out of the renderer's first bundle (the renderer imports only types from
 * the contract). contract.ts fails to compile if these lists and its CALLS or Events ever differ.
 */

export const CALL_NAMES = [
  'getAppInfo',
  'listProfiles',
  'addProfile',
  'rotateProfileKey',
  'renameProfile',
  'removeProfile',
  'setActiveProfile',
  'startDemo',
  'getSession',
  'getSettings',
  'setSettings',
  'getOverview',
  'addFiles',
  'addFileContents',
  'history',
  'retryUpload',
  'cancelUpload',
  'retryFailed',
  'addSampleReceipts',
  'pauseUploads',
  'resumeUploads',
  'exportHistory',
  'showSourceFile',
  'listFolders',
  'addFolder',
  'updateFolder',
  'removeFolder',
  'pickDirectory',
  'listPurchaseOrders',
  'createPurchaseOrder',
  'listInvoices',
  'getInvoice',
  'createInvoiceFromPrompt',
  'listExpenses',
  'listBills',
  'updateExpense',
  'updateBill',
  'replaceBill',
  'listBankTransactions',
  'deleteBankTransaction',
  'uploadBankStatement',
  'listReferredBusinesses',
  'getBillingStatus',
  'registerBusiness',
  'saveRegisteredBusiness',
  'discardRegistration',
  'addSeats',
  'addCredits',
  'getClientHealth',
] as const
export type CallName = (typeof CALL_NAMES)[number]

export const EVENT_NAMES = [
  'upload',
  'progress',
  'folder',
  'rateLimit',
  'profile',
  'notice',
  'storage',
  'session',
  'profiles',
  'settings',
] as const
export type EventName = (typeof EVENT_NAMES)[number]
