-- A small CPU-bound program for ev2hp's time-profile tests: nested cost centres,
-- a recursive one, a where-bound one and a CAF.
module Main (main) where

import Data.List (foldl')

primes :: [Int]
primes = sieve [2..] where sieve (p:xs) = p : sieve [x | x <- xs, x `mod` p /= 0]

collatz :: Int -> Int
collatz n = go n 0
  where go 1 acc = acc
        go m acc = go (if even m then m `div` 2 else 3 * m + 1) (acc + 1)

build :: Int -> [Int]
build 0 = []
build k = collatz k : build (k - 1)

sumSquares :: Int -> Int
sumSquares n = foldl' (\a x -> a + x * x `mod` 7) 0 [1..n]

main :: IO ()
main = do
  print (sum (take 1500 primes))
  print (maximum (build 300000))
  print (sumSquares 20000000)
