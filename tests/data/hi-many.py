#!/usr/bin/env python3
"""hi-many.py MODULES FUNCS: writes Main.hs and G1.hs..GM.hs, a program whose heap holds
values built by MODULES x FUNCS generated functions, each allocating at sites of its own.

tests/data/hi-many-g910.eventlog.gz and .hp.gz (issue 31) are a run of it, made with GHC
9.10.3 in a Debian sid chroot (../shared/tools/newghc.sh sid):

    python3 hi-many.py 6 600
    ghc -O0 -rtsopts -finfo-table-map -fdistinct-constructor-tables Main.hs -o hiprog
    ./hiprog 60 +RTS -hi -i0.05 -l -RTS

3,600 functions in 6 modules, 4 data types each: 62,281 IPE events, 13,276 bands, 18
censuses. Two IPE events end the runtime's 2 MiB global blocks and declare an end one byte
past their block's (doc/DESIGN.md, "IPE events at a block's end").

tests/data/hi-4k-g910 and hc-2k-g910 (issue 39: defaults that show the heap,
tests/autogroup.sh) are two more runs of it in the same chroot, with their runtime's .hp:

    python3 hi-many.py 3 400
    ghc -O0 -rtsopts -finfo-table-map -fdistinct-constructor-tables Main.hs -o hiprog
    ./hiprog 50 +RTS -hi -i0.1 -l -RTS           # 4,431 bands, 5 censuses

    python3 hi-many.py 4 500
    ghc -O0 -prof -fprof-auto -rtsopts Main.hs -o hcprog
    ./hcprog 40 +RTS -hc -i0.05 -l -RTS          # 2,032 stacks, 10 censuses
"""
import sys
mods, funcs = int(sys.argv[1]), int(sys.argv[2])
TYPES = 4
for m in range(1, mods + 1):
    out = [f"module G{m} (Box, funs, forceBox) where", ""]
    for k in range(TYPES):
        out.append(f"data T{m}x{k} = C{m}x{k} !Int (Maybe Int) | D{m}x{k} Int")
    out.append(f"data Box = " + " | ".join(f"B{k} [T{m}x{k}]" for k in range(TYPES)))
    out.append("")
    out.append("forceBox :: Box -> Int")
    for k in range(TYPES):
        out.append(f"forceBox (B{k} xs) = sum [ v | t <- xs, let v = case t of {{ C{m}x{k} a (Just b) -> a + b; C{m}x{k} a Nothing -> a; D{m}x{k} a -> a }} ]")
    out.append("")
    for i in range(funcs):
        k = i % TYPES
        span = i % 9
        if i % 3 == 2:
            body = f"[D{m}x{k} (x * {i + 1}) | x <- [n .. n + {span}]]"
        else:
            body = f"[C{m}x{k} x (Just (x + {i})) | x <- [n .. n + {span}]]"
        out.append(f"f{i} :: Int -> Box")
        out.append(f"f{i} n = B{k} {body}")
    out.append("")
    out.append("funs :: [Int -> Box]")
    out.append("funs = [" + ", ".join(f"f{i}" for i in range(funcs)) + "]")
    open(f"G{m}.hs", "w").write("\n".join(out) + "\n")
imports = "\n".join(f"import qualified G{m}" for m in range(1, mods + 1))
lets = "\n".join(
    f"    let b{m} = map ($ r) G{m}.funs\n    _ <- evaluate (sum (map G{m}.forceBox b{m}))" for m in range(1, mods + 1))
keep = "\n".join(f"    modifyIORef' r{m} (\\old -> {'(b%d : old)' % m if m == 1 else 'take 3 (b%d : old)' % m})" for m in range(1, mods + 1))
refs = "\n".join(f"  r{m} <- newIORef []" for m in range(1, mods + 1))
total = " + ".join(f"length (concat xs{m})" for m in range(1, mods + 1))
reads = "\n".join(f"  xs{m} <- readIORef r{m}" for m in range(1, mods + 1))
open("Main.hs", "w").write(f"""module Main (main) where
-- A generated program (hi-many.py {mods} {funcs}): {mods} modules of {funcs} functions, each
-- building lists of its own constructors; module G1's values are all kept (they grow,
-- a leak), the others' only for the last three rounds.
import Control.Exception (evaluate)
import Control.Monad (forM_)
import Data.IORef
import System.Environment (getArgs)
{imports}

main :: IO ()
main = do
  args <- getArgs
  let rounds = case args of {{ (a:_) -> read a; _ -> 30 }} :: Int
{refs}
  forM_ [1 .. rounds] $ \\r -> do
{lets}
{keep}
    _ <- evaluate (sum [1 .. 300000 :: Int])
    return ()
{reads}
  print ({total})
""")
