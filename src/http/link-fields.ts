import { Type } from '@sinclair/typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../links/list-links.js';

/** Field schemas the app API (camelCase) and v1 (snake_case) share: same rules, different names. */
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
export const DestinationUrl = Type.String({ description: 'The absolute http(s) URL to shorten.' });
export const CustomCode = Type.String({ maxLength: 200, description: '3–64 of A-Z a-z 0-9 _ -, not a reserved word.' });
export const Expiry = Type.String({ format: 'date-time', description: 'ISO 8601 date-time in the future.' });
export const ExpiryOrNull = Type.Union([Expiry, Type.Null()], { description: 'null removes the expiry.' });
export const Cursor = Type.String({ maxLength: 64, description: 'The next-page cursor of the previous answer.' });
export const PageSize = Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE });
export const NextCursor = Type.Union([Type.String(), Type.Null()]);
