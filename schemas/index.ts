export * from './api'
export * from './assumptions'
export * from './labels'
export * from './read'
