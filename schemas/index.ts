export * from './api'
export * from './assumptions'
export * from './labels'
