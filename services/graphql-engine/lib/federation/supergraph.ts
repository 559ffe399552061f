/**
 * The composition → planner interface lives in lib/graphql/federation/supergraph.ts, so the
 * apis service (which composes on save) and graphql-engine (which plans) share one definition
 * without importing each other. This module keeps the engine's import path.
 */
export * from '../../../../lib/graphql/federation/supergraph';
