import { Type } from '@sinclair/typebox';

export const ProblemJson = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  code: Type.String(),
}, { $id: 'Problem', additionalProperties: true });

/** Reference to the shared problem schema for a route's error responses. */
export const problemRef = Type.Ref('Problem');

export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, problemRef]));
}
