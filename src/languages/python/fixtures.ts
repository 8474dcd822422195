/** pytest's fixtures as injected parameters: what a test's parameter holds when it names a fixture. */
import type { InjectedParams } from "../types.ts";

/**
 * `@pytest.fixture`, `@pytest.fixture(scope=…, name="x")`, `@fixture`, `@pytest_asyncio.fixture`
 * provide a value to test functions and other fixtures, found in the test's class, its module,
 * then the `conftest.py` of its folder and of each folder above.
 */
export const pytestFixtures: InjectedParams = {
  provider: /^@(?:pytest(?:_asyncio)?\.)?fixture\b(?:\(.*?\bname\s*=\s*["'](?<name>[^"']+)["'])?/,
  receiver: /^test/,
  sharedFile: "conftest.py",
};
