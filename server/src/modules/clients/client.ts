// A sandbox client as the services see it: who it is, its default warehouse and its own clock.
export interface Client {
  id: number;
  username: string;
  defaultWarehouse: string;
  clockOffsetSeconds: number;
}
