/*
 * Minimal typings for React 18 (the project has no @types/react): the hooks and helpers the UI
 * uses, with real signatures, and permissive intrinsic elements. Component props are checked.
 */
declare module 'react' {
  export type ReactNode = ReactElement | string | number | boolean | null | undefined | Iterable<ReactNode>;
  export interface ReactElement {
    type: unknown;
    props: unknown;
    key: string | null;
  }
  export type SetStateAction<T> = T | ((previous: T) => T);
  export type Dispatch<A> = (value: A) => void;
  export interface MutableRefObject<T> {
    current: T;
  }
  export interface Context<T> {
    Provider: (props: { value: T; children?: ReactNode }) => ReactElement;
  }
  export interface SyntheticEvent<E = Element> {
    target: EventTarget & E;
    currentTarget: EventTarget & E;
    preventDefault(): void;
    stopPropagation(): void;
  }
  export type FormEvent<E = Element> = SyntheticEvent<E>;
  export type ChangeEvent<E = Element> = SyntheticEvent<E>;
  export interface KeyboardEvent<E = Element> extends SyntheticEvent<E> {
    key: string;
  }
  export function useState<T>(initial: T | (() => T)): [T, Dispatch<SetStateAction<T>>];
  export function useEffect(effect: () => void | (() => void), deps?: readonly unknown[]): void;
  export function useMemo<T>(factory: () => T, deps: readonly unknown[]): T;
  export function useCallback<T extends (...args: never[]) => unknown>(callback: T, deps: readonly unknown[]): T;
  export function useRef<T>(initial: T): MutableRefObject<T>;
  export function useContext<T>(context: Context<T>): T;
  export function useId(): string;
  export function createContext<T>(initial: T): Context<T>;
  export const Fragment: (props: { children?: ReactNode }) => ReactElement;
  export const StrictMode: (props: { children?: ReactNode }) => ReactElement;
}

declare module 'react/jsx-runtime' {
  export const jsx: unknown;
  export const jsxs: unknown;
  export const Fragment: unknown;
}

declare module 'react-dom/client' {
  import type { ReactNode } from 'react';
  export function createRoot(container: Element): { render(node: ReactNode): void; unmount(): void };
}

declare namespace JSX {
  type Element = import('react').ReactElement;
  interface ElementChildrenAttribute {
    children: unknown;
  }
  interface IntrinsicAttributes {
    key?: string | number;
  }
  interface IntrinsicElements {
    [element: string]: any;
  }
}

declare module '*.svg' {
  const url: string;
  export default url;
}
declare module '*.css';
