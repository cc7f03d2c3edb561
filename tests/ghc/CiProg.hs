-- CiProg.hs: the program the example CI workflows (doc/ci/) profile in ev2hp's tests
-- (tests/ci_workflows.py builds it with GHC and runs it with each workflow's own
-- +RTS line). It keeps a map of 20,000 entries for its whole run and makes short-lived
-- lists around it for 2 s of its own CPU time, so that a census every 0.1 s (+RTS -hT,
-- the default -i) finds a steady heap often enough for every gate, --max-growth's 4
-- censuses included, however loaded the machine: the runtime's census interval is
-- mutator time, so a loop that ran for 2 s of wall time made 3 censuses on a machine
-- running 16 jobs on 2 cores. At most 200,000 rounds: it always ends.
module Main (main) where

import Data.List (foldl')
import qualified Data.Map.Strict as M
import System.CPUTime (getCPUTime)

main :: IO ()
main = do
  let kept = M.fromList [(k, show k) | k <- [1 .. 20000 :: Int]]
  print (M.size kept)
  start <- getCPUTime
  let go :: Int -> Int -> IO Int
      go n acc
        | n >= 200000 = pure acc
        | otherwise = do
            now <- getCPUTime
            if now - start >= 2 * 10 ^ (12 :: Int)
              then pure acc
              else do
                let acc' = (acc + foldl' (+) 0 [n .. n + 20000]) `mod` 1000003
                acc' `seq` go (n + 1) acc'
  total <- go 0 0
  print (total + M.size kept)
