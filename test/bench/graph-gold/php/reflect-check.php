<?php
// Cross-checks the PHP gold's types against PHP's own Reflection, the classes loaded through a
// PSR-4 / PSR-0 autoloader written from the corpus's composer.json (autoload and autoload-dev):
//
//   php reflect-check.php <corpus-dir> <gold.json>
//
// For each class, interface, trait and enum of the gold that loads (a class whose parent or
// interface lives in a Composer package that is not installed cannot load, and is listed apart;
// PHPUnit comes from Debian's package when installed):
// ReflectionClass's end line against the gold's `end_line`, its parent class and its own traits
// against the gold's inherits, and each method the class declares in that file (ReflectionMethod,
// getDeclaringClass) against the gold's methods, by name and end line. Prints a JSON summary with
// every disagreement.

declare(strict_types=1);

[$root, $goldFile] = [rtrim($argv[1] ?? '', '/'), $argv[2] ?? ''];
if (!is_dir($root) || !is_file($goldFile)) {
    fwrite(STDERR, "usage: php reflect-check.php <corpus-dir> <gold.json>\n");
    exit(2);
}
$gold = json_decode(file_get_contents($goldFile), true);
$composer = json_decode(file_get_contents("$root/composer.json"), true);
$psr4 = [];
$psr0 = [];
foreach (['autoload', 'autoload-dev'] as $section) {
    foreach ($composer[$section]['psr-4'] ?? [] as $p => $dirs) foreach ((array) $dirs as $d) $psr4[] = [$p, "$root/$d"];
    foreach ($composer[$section]['psr-0'] ?? [] as $p => $dirs) foreach ((array) $dirs as $d) $psr0[] = [$p, "$root/$d"];
}
// test classes extend PHPUnit's TestCase: Debian's PHPUnit (`apt-get install -y phpunit`) when present
if (is_file('/usr/share/php/PHPUnit/Autoload.php')) require_once '/usr/share/php/PHPUnit/Autoload.php';
spl_autoload_register(function (string $class) use ($psr4, $psr0): void {
    foreach ($psr4 as [$p, $d]) {
        if (strncmp($class, $p, strlen($p)) === 0 && is_file($f = rtrim($d, '/') . '/' . str_replace('\\', '/', substr($class, strlen($p))) . '.php')) { require_once $f; return; }
    }
    foreach ($psr0 as [$p, $d]) {
        if (strncmp($class, $p, strlen($p)) === 0 && is_file($f = rtrim($d, '/') . '/' . str_replace(['\\', '_'], '/', $class) . '.php')) { require_once $f; return; }
    }
});

$defs = [];
foreach ($gold['definitions'] as $d) $defs[$d['qualified']] = $d;
$bases = [];
foreach ($gold['inherits'] as $e) $bases[$e['child']][] = $e['base'];
$fqOf = fn(string $q) => str_replace('.', '\\', explode('#', $q, 2)[1]);
$byFq = [];
foreach ($defs as $q => $d) if (in_array($d['kind'], ['class', 'interface', 'trait', 'enum'], true)) $byFq[strtolower($fqOf($q))] = $q;

$out = ['loaded' => 0, 'not_loadable' => [], 'types_checked' => 0, 'methods_checked' => 0, 'disagreements' => []];
foreach ($byFq as $lc => $q) {
    $d = $defs[$q];
    $fq = $fqOf($q);
    try {
        $ok = class_exists($fq) || interface_exists($fq) || trait_exists($fq) || (function_exists('enum_exists') && enum_exists($fq));
    } catch (Throwable $e) {
        $ok = false;
    }
    if (!$ok) { $out['not_loadable'][] = $fq; continue; }
    $out['loaded']++;
    $r = new ReflectionClass($fq);
    if (realpath($r->getFileName()) !== realpath("$root/{$d['file']}")) { $out['disagreements'][] = "$fq: loaded from {$r->getFileName()}"; continue; }
    $out['types_checked']++;
    if ($r->getEndLine() !== $d['end_line']) $out['disagreements'][] = "$fq: end line {$r->getEndLine()} vs gold {$d['end_line']}";
    // own parent and traits, as far as they are in the corpus (the gold has only corpus bases)
    $want = [];
    if ($r->getParentClass() && isset($byFq[strtolower($r->getParentClass()->getName())])) $want[] = $byFq[strtolower($r->getParentClass()->getName())];
    foreach ($r->getTraitNames() as $t) if (isset($byFq[strtolower($t)])) $want[] = $byFq[strtolower($t)];
    if ($r->isInterface()) foreach ($r->getInterfaceNames() as $i) {
        // an interface's own `extends`: those not reached through another listed one
        if (!isset($byFq[strtolower($i)])) continue;
        $viaOther = false;
        foreach ($r->getInterfaceNames() as $j) if ($j !== $i && in_array($i, (new ReflectionClass($j))->getInterfaceNames(), true)) $viaOther = true;
        if (!$viaOther) $want[] = $byFq[strtolower($i)];
    }
    $have = array_values(array_filter($bases[$q] ?? [], fn($b) => $defs[$b]['kind'] !== 'interface' || $r->isInterface()));
    sort($want);
    sort($have);
    if ($want !== $have) $out['disagreements'][] = "$fq: bases " . json_encode($want) . ' vs gold ' . json_encode($have);
    foreach ($r->getMethods() as $m) {
        if ($m->getDeclaringClass()->getName() !== $r->getName() || realpath((string) $m->getFileName()) !== realpath("$root/{$d['file']}")) continue;
        if ($m->getStartLine() < $r->getStartLine() || $m->getEndLine() > $r->getEndLine()) continue; // copied from a trait
        $out['methods_checked']++;
        $mq = "$q.{$m->getName()}";
        if (!isset($defs[$mq])) { $out['disagreements'][] = "$fq::{$m->getName()}: not in the gold"; continue; }
        if ($m->getEndLine() !== $defs[$mq]['end_line']) $out['disagreements'][] = "$fq::{$m->getName()}: end line {$m->getEndLine()} vs gold {$defs[$mq]['end_line']}";
    }
}
echo json_encode($out, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES) . "\n";
