export * from './api'
export * from './assumptions'
