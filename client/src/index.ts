// @shopapi/client: a typed client of the Shop API, generated from the contract (types from its OpenAPI documents,
// requests through openapi-fetch), with the token flow and cursor pagination.
export {
  createShopApiClient,
  createShopApiV2Client,
  JSONAPI,
  ParameterError,
  type ClientOptions,
  type ShopApiClient,
  type ShopApiV2Client,
} from './client.ts';
export { PageError, type CollectionPath, type ItemOf, type PageOf, type QueryOf } from './paginate.ts';
export { TokenError, TokenSource, type Credentials, type TokenSourceOptions } from './tokens.ts';
export type { components as V3Components, operations as V3Operations, paths as V3Paths } from './generated/v3.ts';
export type { components as V2Components, operations as V2Operations, paths as V2Paths } from './generated/v2.ts';
