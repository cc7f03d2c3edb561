-- Two workers on two capabilities for ev2hp's threaded time-profile test.
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)

fib :: Int -> Integer
fib n = if n < 2 then toInteger n else fib (n - 1) + fib (n - 2)

tri :: Int -> Int
tri n = sum [ x * y `mod` 13 | x <- [1..n], y <- [1..200] ]

worker :: MVar Integer -> Int -> IO ()
worker v k = do
  r <- evaluate (fib k)
  putMVar v r

main :: IO ()
main = do
  a <- newEmptyMVar
  b <- newEmptyMVar
  _ <- forkOn 0 (worker a 31)
  _ <- forkOn 1 (evaluate (toInteger (tri 150000)) >>= putMVar b)
  x <- takeMVar a
  y <- takeMVar b
  print (x + y)
