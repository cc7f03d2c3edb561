-- diffpair.hs: one program, two runs for ev2hp's --view diff tests (tests/data/README).
-- The argument K sets both: the run does K times the work (its length grows K-fold)
-- while the list it keeps from the start is 1/K as long. So between K=1 (the base) and
-- K=2: the leak (loop, busy) grows to twice its size over twice the time, and the kept
-- list (kept) halves.
import Control.Exception (evaluate)
import Data.List (foldl')
import System.Environment (getArgs)

busy :: Int -> Int
busy n = foldl' (+) 0 [n .. n + 3000]

loop :: Int -> [Int] -> IO [Int]
loop 0 acc = return acc
loop n acc = do
  let x = busy n
  x `seq` loop (n - 1) (x : acc)

main :: IO ()
main = do
  [ks] <- getArgs
  let k = read ks :: Int
      kept = {-# SCC kept #-} map (* 3) [1 .. 60000 `div` k] :: [Int]
  _ <- evaluate (length kept)
  grown <- loop (40000 * k) []
  print (length grown + sum kept)
