-- Steady.hs: a program that computes for some seconds, allocating steadily and retaining
-- a bounded map, so that a heap profile followed live has a census every -i to show. It
-- measured what doc/DESIGN.md says under "Censuses held back" (census/heldback.h): GHC
-- 9.10.3 (the sid chroot of ../shared/tools/newghc.sh), built and run into a FIFO that
-- ev2hp --serve reads, once without and once with the flush interval:
--
--   ghc -O0 -rtsopts Steady.hs -o steady
--   mkfifo ev.fifo; ev2hp --serve 0 ev.fifo -o live.hp &
--   ./steady 12000 +RTS -hT -i0.1 -l -olev.fifo -RTS
--   ./steady 12000 +RTS -hT -i0.1 -l -olev.fifo --eventlog-flush-interval=1 -RTS
--
-- with /metrics' ghc_heap_profile_censuses_total read every second: without the flag 0
-- for the whole run, then every census at its exit, and the held-back line said once;
-- with it, 9 to 10 more every second and nothing said. Not run by the tests (CI has no
-- GHC 9.10); tests/serve_wait.sh replays a real 9.10.3 eventlog written without a flush.
module Main where
import qualified Data.Map.Strict as M
import Control.Monad (foldM)
import System.Environment (getArgs)

step :: M.Map Int [Int] -> Int -> IO (M.Map Int [Int])
step m i = do
  let m' = M.insert i [i .. i + 50] m
  let spin = sum [ (x * i) `mod` 7 | x <- [1 .. 20000 :: Int] ]
  (M.size m' + spin) `seq` return ()
  return (if M.size m' > 600 then M.deleteMin m' else m')

main :: IO ()
main = do
  args <- getArgs
  let n = case args of (a:_) -> read a; _ -> 1000
  m <- foldM step M.empty [1 .. n]
  print (M.size m)
