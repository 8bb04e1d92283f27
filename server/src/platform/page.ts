// A keyset page: rows with an id above `cursor`, at most `size` of them, in id order. Every list reads pages so.
export interface Page {
  cursor: number;
  size: number;
}
