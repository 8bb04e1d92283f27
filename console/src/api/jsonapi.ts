// Reading JSON:API documents: included resources by type, and the one a relationship points to.

/** The included resources of one type, typed as that type. */
export function ofType<Resource extends { type: string }, Type extends Resource['type']>(
  resources: readonly Resource[] | undefined,
  type: Type,
): Extract<Resource, { type: Type }>[] {
  return (resources ?? []).filter((resource): resource is Extract<Resource, { type: Type }> => resource.type === type);
}

/** The resource a to-one relationship names, among `resources`. */
export function related<Resource extends { id: number }>(
  resources: readonly Resource[],
  relationship: { data: { id: number } | null } | undefined,
): Resource | undefined {
  return resources.find((resource) => resource.id === relationship?.data?.id);
}
